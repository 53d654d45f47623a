import { and, eq } from "drizzle-orm";
import { CONSOLE_SESSION_COOKIE } from "../../lib/auth/console-principal";
import type { ServiceContext } from "../../lib/auth/principal";
import { createConsoleSession } from "../../lib/console/console-sessions";
import { hashPassword } from "../../lib/console/passwords";
import type { Db } from "../../lib/db/client";
import { consoleMemberships, consoleUsers } from "../../lib/db/schema";

/** What a console user does, as the benchmark measures it (scripts/bench-console.ts). */
export interface ConsoleDriver {
  paymentsPage(query: Record<string, string>): Promise<{ after: string | null; rows: number }>;
  paymentDetail(paymentId: string): Promise<void>;
  customerSearch(text: string): Promise<void>;
  /** The export's body as the client reads it. */
  exportCsv(query: Record<string, string>): Promise<ReadableStream<Uint8Array>>;
}

const BENCH_OWNER_EMAIL = "bench-owner@console-bench.example";

/** The benchmark's owner of the service, made once, and a fresh signed-in session's cookie (no password sign-in is timed). */
async function ownerCookie(db: Db, service: ServiceContext): Promise<string> {
  await db
    .insert(consoleUsers)
    .values({ email: BENCH_OWNER_EMAIL, name: "Bench Owner", passwordHash: await hashPassword(crypto.randomUUID()) })
    .onConflictDoNothing();
  const [user] = await db.select({ id: consoleUsers.id }).from(consoleUsers).where(eq(consoleUsers.email, BENCH_OWNER_EMAIL));
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
  const get = async (path: string) => {
    const response = await fetch(new URL(path, baseUrl), { headers: { cookie }, redirect: "manual" });
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
    return response;
  };
  const pathWith = (path: string, query: Record<string, string>) => `${path}?${new URLSearchParams(query).toString()}`;
  return {
    async paymentsPage(query) {
      const html = await (await get(pathWith("/en/console/payments", query))).text();
      const after = /[?&;]after=([^"&]+)"/.exec(html.replaceAll("&amp;", "&"))?.[1] ?? null;
      const rows = html.match(/<tr[^>]*><td[^>]*><a[^>]*href="\/en\/console\/payments\/[0-9a-f-]{36}"/g)?.length ?? 0;
      return { after: after && decodeURIComponent(after), rows };
    },
    async paymentDetail(paymentId) {
      await (await get(`/en/console/payments/${paymentId}`)).arrayBuffer();
    },
    async customerSearch(text) {
      await (await get(pathWith("/en/console/customers", { q: text }))).arrayBuffer();
    },
    async exportCsv(query) {
      return (await get(pathWith("/en/console/payments/export", query))).body!;
    },
  };
}
