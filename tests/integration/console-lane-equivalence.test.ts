import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_LANE_PAGES } from "@/components/console/pages/console-lane-pages";
import { consoleSessionOf, createConsoleUser, serviceIdOf } from "../support/console";
import { storedPayment } from "../support/console-payments";
import { createMerchant } from "../support/factories";
import { realEvent } from "../support/real-events";
import { freePort, spawnGateway, type SpawnedGateway } from "../support/spawned-gateway";
import { useTestGateway } from "../support/test-gateway";

/**
 * Issue 32: the console lane (lib/console-web/console-lane.ts) serves the signed-in console pages
 * exactly as their App Router pages do. The real `npm start` entry (server/serve.mjs) twice on
 * the same database, once with GATEWAY_CONSOLE_LANE=off (every page through Next.js) and once
 * with the lane; every page of the lane, in each language, as an owner, a viewer and nobody, must
 * answer the same: status, Location, the headers' names, and the whole document, up to what Next.js
 * adds for its own runtime (an empty hidden Suspense boundary and its chunk list, which
 * server/defer-page-scripts.mjs leaves and nothing reads), the fresh formKey of a confirmation
 * and nonces. A redirect's body (Next.js's, a document no browser shows) the lane leaves out.
 * Where Next.js inlines a stylesheet of the build, the lane links that file: the same place in
 * the head, and the file it links must be the very text Next.js inlines.
 */

const { api } = useTestGateway();
const servers: SpawnedGateway[] = [];
let viaNext: string;
let viaLane: string;
let laneUrl: string;
/** Each stylesheet Next.js inlined, by the build file it names (data-href). */
const inlinedByNext = new Map<string, string>();
const paths: { who: string; path: string }[] = [];

interface Answer {
  status: number;
  location: string | null;
  headerNames: string[];
  /** The Content-Security-Policy, its nonce blanked: the lane's must be the proxy's, whatever NODE_ENV the server runs under. */
  policy: string;
  document: string;
}

const INLINED_STYLESHEET = /<style data-precedence="next" data-href="(\/_next\/[^"]+)">([^]*?)<\/style>/g;

/**
 * What Next.js alone writes: its empty Suspense boundary, its chunk list; each confirmation's
 * random formKey; the response's nonce. An inlined stylesheet becomes the <link> to its file.
 */
function comparable(html: string, nonce: string | undefined): string {
  return (nonce ? html.replaceAll(nonce, "…") : html)
    .replace(INLINED_STYLESHEET, (_, href: string, css: string) => {
      inlinedByNext.set(href, css);
      return `<link rel="stylesheet" href="${href}" data-precedence="next"/>`;
    })
    .replace('<div hidden=""><!--$--><!--/$--></div>', "")
    .replace(/<!--\$--><!--\/\$--><script nonce="[^"]*" id="_R_">[^]*?<\/script>/, "")
    .replace(/name="formKey" value="[^"]*"/g, 'name="formKey" value="…"');
}

const VARYING_HEADERS = new Set(["date", "content-length", "transfer-encoding", "x-request-id", "content-security-policy"]);

async function answerOf(baseUrl: string, path: string, cookie: string | null): Promise<Answer> {
  const response = await fetch(baseUrl + path, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  const body = await response.text();
  const policy = response.headers.get("content-security-policy") ?? "";
  return {
    status: response.status,
    location: response.headers.get("location"),
    // A redirect's body is Next.js's document for no one to read (browsers follow the Location);
    // the lane sends none, so nothing to compress either.
    headerNames: [...response.headers.keys()].filter((name) => !VARYING_HEADERS.has(name) && !(response.status === 307 && name === "content-encoding")).sort(),
    policy: policy.replace(/'nonce-[^']+'/g, "'nonce-…'"),
    // The not-found page (Next.js's, through either door) carries the response's nonce.
    document: response.status === 200 || response.status === 404 ? comparable(body, /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1]) : "",
  };
}

beforeAll(async () => {
  const [merchant, other] = [await createMerchant(), await createMerchant()];
  const serviceId = await serviceIdOf(merchant);
  const owner = await createConsoleUser([{ merchant, role: "owner" }]);
  const viewer = await createConsoleUser([{ merchant, role: "viewer" }]);
  const refunded = await storedPayment(serviceId, { state: "PARTIALLY_REFUNDED", method: "card", card: { brand: "visa", last4: "4242" }, phone: "+213555000111" });
  await storedPayment(serviceId, { state: "PRE_AUTHORIZED", phone: "+213555000111" });
  const event = await realEvent(api, merchant, "succeeded");
  const theirs = await storedPayment(await serviceIdOf(other));

  const pagesOf = (locale: string) =>
    [
      "",
      "/payments",
      "/payments?status=PARTIALLY_REFUNDED&status=PRE_AUTHORIZED&q=%2B213555000111",
      "/payments?amountFrom=abc",
      `/payments/${refunded.id}`,
      `/payments/${refunded.id}?confirm=refund`,
      `/payments/${event.paymentId}`,
      "/customers?q=%2B213555",
      `/customers/${refunded.customer.id}`,
      "/payment-links",
      "/team",
      "/account",
      "/settings",
      "/developers",
      "/developers?type=nope",
      `/developers/events/${event.id}`,
      "/audit-log",
      // Another merchant's: not found.
      `/payments/${theirs.id}`,
      `/customers/${theirs.customer.id}`,
    ].map((page) => `/${locale}/console${page}`);
  const who: Record<string, string | null> = {
    owner: (await consoleSessionOf(owner.id)).cookie,
    viewer: (await consoleSessionOf(viewer.id)).cookie,
    nobody: null,
  };
  for (const locale of ["en", "fr", "ar"]) for (const path of pagesOf(locale)) paths.push({ who: "owner", path });
  for (const path of pagesOf("en")) paths.push({ who: "viewer", path }, { who: "nobody", path });

  const start = async (lane: boolean) => {
    const port = await freePort();
    const gateway = await spawnGateway(port, { GATEWAY_BACKGROUND_JOBS: "off", GATEWAY_CONSOLE_LANE: lane ? "on" : "off" });
    servers.push(gateway);
    return `http://127.0.0.1:${port}`;
  };
  // One after the other: the first start may build, and each runs the migrations.
  const next = await start(false);
  const lane = await start(true);
  laneUrl = lane;
  const replay = async (baseUrl: string) => {
    const answers: Record<string, Answer> = {};
    for (const { who: name, path } of paths) answers[`${name} ${path}`] = await answerOf(baseUrl, path, who[name]!);
    return answers;
  };
  viaNext = JSON.stringify(await replay(next));
  viaLane = JSON.stringify(await replay(lane));
}, 900_000);

afterAll(() => {
  for (const server of servers) if (server.process.exitCode === null) server.process.kill("SIGKILL");
});

describe("the console lane against the App Router (npm start, GATEWAY_CONSOLE_LANE=off)", () => {
  it("answers every signed-in console page as the App Router does, in each language and for each role", () => {
    const next = JSON.parse(viaNext) as Record<string, Answer>;
    const lane = JSON.parse(viaLane) as Record<string, Answer>;
    for (const key of Object.keys(next)) expect.soft(lane[key], key).toEqual(next[key]);
  });

  it("links the very stylesheets Next.js inlines, cached for good", async () => {
    expect(inlinedByNext.size).toBeGreaterThan(0);
    for (const [href, css] of inlinedByNext) {
      const response = await fetch(laneUrl + href);
      expect(response.status, href).toBe(200);
      expect(response.headers.get("cache-control"), href).toBe("public, max-age=31536000, immutable");
      expect(await response.text(), href).toBe(css);
    }
  });

  it("covers every page of the lane, the redirects and the not-found pages", () => {
    const next = JSON.parse(viaNext) as Record<string, Answer>;
    const statuses = Object.values(next).map((answer) => answer.status);
    for (const status of [200, 307, 404]) expect(statuses).toContain(status);
    const reached = new Set(
      Object.entries(next)
        .filter(([, answer]) => answer.status === 200)
        .map(([key]) =>
          key
            .split(" ")[1]!
            .split("?")[0]!
            .replace(/^\/\w\w\/console\/?/, "")
            .replace(/[0-9a-f-]{36}|msg_\w+/g, "*"),
        ),
    );
    const pages = Object.keys(CONSOLE_LANE_PAGES).map((key) => key.replace(/\[\w+\]/g, "*"));
    expect(pages.filter((page) => !reached.has(page))).toEqual([]);
    expect(Object.values(next).some((answer) => answer.location?.includes("/console/sign-in"))).toBe(true);
    expect(Object.values(next).some((answer) => answer.location?.includes("/console/refused?need="))).toBe(true);
  });

  it("serves them outside Next.js when on", () => {
    expect(servers[1]!.output()).toMatch(/console pages on the console lane/);
    expect(servers[0]!.output()).not.toMatch(/console pages on the console lane/);
  });
});
