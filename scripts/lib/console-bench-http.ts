import http from "node:http";
import { Readable } from "node:stream";
import { createGunzip, gunzipSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import { CONSOLE_SESSION_COOKIE } from "../../lib/console/access/console-principal";
import type { ServiceContext } from "../../lib/auth/principal";
import { createConsoleSession } from "../../lib/console/access/console-sessions";
import { hashPassword } from "../../lib/console/access/passwords";
import type { Db } from "../../lib/db/client";
import { consoleMemberships, consoleUsers } from "../../lib/db/schema";

/** What a console user does, as the benchmark measures it (scripts/bench-console.ts). */
export interface ConsoleDriver {
  paymentsPage(query: Record<string, string>): Promise<{ after: string | null; rows: number }>;
  paymentDetail(paymentId: string): Promise<void>;
  customerSearch(text: string): Promise<void>;
  /** The console home: the merchant's figures at a glance (issue 42). */
  home(): Promise<void>;
  /** The export's body as the client reads it. */
  exportCsv(query: Record<string, string>): Promise<ReadableStream<Uint8Array>>;
}

const BENCH_OWNER_EMAIL = "bench-owner@console-bench.example";

/**
 * The benchmark's owner of the service, made once, and a fresh signed-in session's cookie (no password sign-in
 * is timed).
 */
async function ownerCookie(db: Db, service: ServiceContext): Promise<string> {
  await db
    .insert(consoleUsers)
    .values({ email: BENCH_OWNER_EMAIL, name: "Bench Owner", passwordHash: await hashPassword(crypto.randomUUID()) })
    .onConflictDoNothing();
  const [user] = await db
    .select({ id: consoleUsers.id })
    .from(consoleUsers)
    .where(eq(consoleUsers.email, BENCH_OWNER_EMAIL));
  const [member] = await db
    .select({ userId: consoleMemberships.userId })
    .from(consoleMemberships)
    .where(and(eq(consoleMemberships.userId, user!.id), eq(consoleMemberships.serviceId, service.id)));
  if (!member) await db.insert(consoleMemberships).values({ userId: user!.id, serviceId: service.id, role: "owner" });
  const { token } = await createConsoleSession(db, { userId: user!.id, stage: "active" });
  return `${CONSOLE_SESSION_COOKIE}=${token}`;
}

/**
 * The pages themselves, over HTTP, as a signed-in owner of `service` on a server (`npm start`)
 * reading the same database: each call is a GET of the page or the export route; a page's next
 * cursor and row count are read from its HTML.
 */
export async function httpDriver(db: Db, service: ServiceContext, baseUrl: string): Promise<ConsoleDriver> {
  const cookie = await ownerCookie(db, service);
  const base = new URL(baseUrl);
  if (base.protocol !== "http:")
    throw new Error(`--http takes an http:// address (the server on this machine), not ${base.protocol}`);
  // node:http with keep-alive and zlib, not fetch: this client runs on the same two cores as the
  // servers and PostgreSQL, and fetch's WHATWG streams cost it about twice the CPU per page. It
  // still asks for gzip and inflates every page, as a browser does.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const get = (path: string) =>
    new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = http.get(
        {
          hostname: base.hostname.replace(/^\[|\]$/g, ""),
          port: base.port,
          path,
          agent,
          timeout: 60_000,
          headers: { cookie, "accept-encoding": "gzip" },
        },
        (response) => {
          if (response.statusCode !== 200) {
            response.resume();
            reject(new Error(`GET ${path} answered ${response.statusCode}`));
          } else resolve(response);
        },
      );
      request.on("timeout", () => request.destroy(new Error(`GET ${path}: no answer in 60 s`)));
      request.on("error", reject);
    });
  const bodyOf = async (path: string): Promise<Buffer> => {
    const response = await get(path);
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    return response.headers["content-encoding"] === "gzip" ? gunzipSync(body) : body;
  };
  const pathWith = (path: string, query: Record<string, string>) => `${path}?${new URLSearchParams(query).toString()}`;
  return {
    async paymentsPage(query) {
      const html = (await bodyOf(pathWith("/en/console/payments", query))).toString("utf8");
      const after = /[?&;]after=([^"&]+)"/.exec(html.replaceAll("&amp;", "&"))?.[1] ?? null;
      const rows = html.match(/<tr[^>]*><td[^>]*><a[^>]*href="\/en\/console\/payments\/[0-9a-f-]{36}"/g)?.length ?? 0;
      return { after: after && decodeURIComponent(after), rows };
    },
    async paymentDetail(paymentId) {
      await bodyOf(`/en/console/payments/${paymentId}`);
    },
    async customerSearch(text) {
      await bodyOf(pathWith("/en/console/customers", { q: text }));
    },
    async home() {
      await bodyOf(pathWith("/en/console", {}));
    },
    async exportCsv(query) {
      // The export is read as a download: the stream as it arrives (a browser saves it as is).
      const response = await get(pathWith("/en/console/payments/export", query));
      if (response.headers["content-encoding"] !== "gzip")
        return Readable.toWeb(response) as ReadableStream<Uint8Array>;
      // A connection reset mid-export must fail the reader, not leave it waiting: pipe() does not pass it on.
      const inflated = createGunzip();
      response.on("error", (error) => inflated.destroy(error));
      return Readable.toWeb(response.pipe(inflated)) as ReadableStream<Uint8Array>;
    },
  };
}
