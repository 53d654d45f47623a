import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_LANE_PAGES } from "@/app/[locale]/console/_pages/console-lane-pages";
import { consoleSessionOf, createConsoleUser, serviceIdOf } from "../support/console";
import { storedPayment } from "../support/console-payments";
import { createMerchant } from "../support/factories";
import { realEvent } from "../support/real-events";
import { freePort, spawnGateway, type SpawnedGateway } from "../support/spawned-gateway";
import { useTestGateway } from "../support/test-gateway";

/**
 * The signed-in console paths held by their one door: the real `npm start` entry
 * (server/serve.mjs), where the console lane (lib/console/web/console-lane.ts) serves them and no
 * App Router page does. Every page of the lane, in each language, as an owner, a viewer and
 * nobody: the page itself (200, in its language, with the console's stylesheet, proxy.ts's
 * headers and a fresh nonce's policy), sign-in and refusal as 307s, another merchant's payment or
 * customer not found (404, the app's neutral page in the reader's language), and the stylesheet
 * the pages link, cached for good. Then what a server does around the pages: an unknown address,
 * HEAD, a trailing slash, encoded characters, a %00, a post; and the pages before sign-in, the
 * lane's too, without any script.
 */

const { api } = useTestGateway();
let gateway: SpawnedGateway;
let baseUrl: string;
const answers = new Map<string, Answer>();
/** Another merchant's payment, as an owner's path. */
let theirPayment: string;
let ownerCookie: string;

interface Answer {
  status: number;
  location: string | null;
  headers: Headers;
  document: string;
}

async function answerOf(path: string, cookie: string | null): Promise<Answer> {
  const response = await fetch(baseUrl + path, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  return {
    status: response.status,
    location: response.headers.get("location"),
    headers: response.headers,
    document: await response.text(),
  };
}

beforeAll(async () => {
  const [merchant, other] = [await createMerchant(), await createMerchant()];
  const serviceId = await serviceIdOf(merchant);
  const owner = await createConsoleUser([{ merchant, role: "owner" }]);
  const viewer = await createConsoleUser([{ merchant, role: "viewer" }]);
  const refunded = await storedPayment(serviceId, {
    state: "PARTIALLY_REFUNDED",
    method: "card",
    card: { brand: "visa", last4: "4242" },
    phone: "+213555000111",
  });
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
  ownerCookie = who.owner!;
  const paths: { who: string; path: string }[] = [];
  for (const locale of ["en", "fr", "ar"]) for (const path of pagesOf(locale)) paths.push({ who: "owner", path });
  for (const path of pagesOf("en")) paths.push({ who: "viewer", path }, { who: "nobody", path });

  const port = await freePort();
  gateway = await spawnGateway(port, { GATEWAY_BACKGROUND_JOBS: "off" });
  baseUrl = `http://127.0.0.1:${port}`;
  for (const { who: name, path } of paths) answers.set(`${name} ${path}`, await answerOf(path, who[name]!));
  theirPayment = `/en/console/payments/${theirs.id}`;
}, 900_000);

afterAll(() => {
  if (gateway && gateway.process.exitCode === null) gateway.process.kill("SIGKILL");
});

const pageAnswers = () => [...answers];

describe("the console's door (npm start)", () => {
  it("serves each page in its language, with the console's stylesheet and the pages' headers", () => {
    const served = pageAnswers().filter(([, answer]) => answer.status === 200);
    expect(served.length).toBeGreaterThan(0);
    for (const [key, answer] of served) {
      const locale = /^\w+ \/(\w\w)\//.exec(key)![1]!;
      expect(answer.document, key).toContain(`<html lang="${locale}" dir="${locale === "ar" ? "rtl" : "ltr"}">`);
      expect(answer.document, key).toMatch(/<link rel="stylesheet" href="\/_lanes\/console\.[0-9a-f]{16}\.css"\/>/);
      expect(answer.document, key).toMatch(/<title>[^<]+<\/title>/);
      expect(answer.headers.get("content-type"), key).toBe("text/html; charset=utf-8");
      expect(answer.headers.get("cache-control"), key).toContain("no-store");
      expect(answer.headers.get("x-content-type-options"), key).toBe("nosniff");
      expect(answer.headers.get("x-request-id"), key).toBeTruthy();
      expect(answer.headers.get("vary") ?? "", key).not.toMatch(/\brsc\b/);
      const policy = answer.headers.get("content-security-policy") ?? "";
      expect(policy, key).toMatch(/script-src [^;]*'nonce-[^']+'/);
      expect(policy, key).toContain("frame-ancestors 'none'");
      expect(policy, key).not.toContain("unsafe-eval");
    }
  });

  it("sends nobody to sign in and a viewer without the capability to the refused page", () => {
    for (const [key, answer] of pageAnswers().filter(([key]) => key.startsWith("nobody "))) {
      expect(answer.status, key).toBe(307);
      expect(answer.location, key).toContain("/en/console/sign-in");
    }
    expect(pageAnswers().some(([, answer]) => answer.location?.includes("/console/refused?need="))).toBe(true);
  });

  it("answers another merchant's payment or customer as not found", () => {
    expect(answers.get(`owner ${theirPayment}`)!.status).toBe(404);
    expect(pageAnswers().filter(([key, answer]) => key.startsWith("owner ") && answer.status === 404)).toHaveLength(6);
  });

  it("covers every page of the lane", () => {
    const reached = new Set(
      pageAnswers()
        .filter(([, answer]) => answer.status === 200)
        .map(([key]) =>
          key
            .split(" ")[1]!
            .split("?")[0]!
            .replace(/^\/\w\w\/console\/?/, "")
            .replace(/[0-9a-f-]{36}|msg_\w+/g, "*"),
        ),
    );
    // The pages before sign-in have their own test below.
    const pages = Object.entries(CONSOLE_LANE_PAGES)
      .filter(([, page]) => !("signedOut" in page))
      .map(([key]) => key.replace(/\[\w+\]/g, "*"));
    expect(pages.filter((page) => !reached.has(page))).toEqual([]);
  });

  it("answers a pageless address: the neutral not-found page, in the reader's language, pages' headers", async () => {
    const titles = { en: "This link is not valid", fr: "Ce lien n'est pas valide", ar: "هذا الرابط غير صالح" };
    for (const [locale, title] of Object.entries(titles)) {
      const path = `/${locale}/console/nothing/here?x=1`;
      const answer = await answerOf(path, null);
      expect(answer.status, path).toBe(404);
      expect(answer.document, path).toContain(`<html lang="${locale}" dir="${locale === "ar" ? "rtl" : "ltr"}">`);
      expect(answer.document, path).toContain(`<title>${title}</title>`);
      // The language switcher keeps the address.
      expect(answer.document, path).toContain(`href="/fr/console/nothing/here?x=1"`);
      expect(answer.headers.get("content-type"), path).toBe("text/html; charset=utf-8");
      expect(answer.headers.get("cache-control"), path).toContain("no-store");
      expect(answer.headers.get("x-frame-options"), path).toBe("DENY");
      expect(answer.headers.get("content-security-policy"), path).toMatch(/script-src [^;]*'nonce-[^']+'/);
    }
    const theirs = answers.get(`owner ${theirPayment}`)!;
    expect(theirs.document).toContain(`<title>${titles.en}</title>`);
  });

  it("answers HEAD as GET without the body, a trailing slash with a 308, encoded characters decoded", async () => {
    const head = await fetch(`${baseUrl}/en/console/payments`, { method: "HEAD", redirect: "manual" });
    expect(head.status).toBe(307);
    expect(head.headers.get("location")).toBe("/en/console/sign-in");
    expect(await head.text()).toBe("");
    const missing = await fetch(`${baseUrl}/en/console/nothing`, { method: "HEAD" });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("");
    const slash = await answerOf("/en/console/payments/?status=FAILED", null);
    expect(slash.status).toBe(308);
    expect(slash.location).toBe("/en/console/payments?status=FAILED");
    expect((await answerOf("/en/console/", null)).location).toBe("/en/console");
    const encoded = await answerOf("/en/console/%70ayments", ownerCookie);
    expect(encoded.status).toBe(200);
    expect(encoded.document).toContain(
      /<title>([^<]+)<\/title>/.exec(answers.get("owner /en/console/payments")!.document)![0],
    );
    expect((await answerOf("/en/console/payments/%E0%A4%A", ownerCookie)).status).toBe(404);
  });

  it("refuses a %00 and a post as proxy.ts refuses them on every page", async () => {
    expect((await answerOf("/en/console/payments?q=%00", null)).status).toBe(400);
    const posted = await fetch(`${baseUrl}/fr/console/payments`, {
      method: "POST",
      body: "a=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(posted.status).toBe(400);
    expect(await posted.text()).toContain('lang="fr"');
  });

  it("serves the pages before sign-in without a script, sending a signed-in member home", async () => {
    for (const path of ["/sign-in", "/sign-up", "/forgot-password", "/reset-password/nope", "/invitations/nope"]) {
      for (const locale of ["en", "fr", "ar"]) {
        const page = await answerOf(`/${locale}/console${path}`, null);
        expect(page.status, path).toBe(200);
        expect(page.document, path).toContain(`<html lang="${locale}" dir="${locale === "ar" ? "rtl" : "ltr"}">`);
        expect(page.document, path).toMatch(/<link rel="stylesheet" href="\/_lanes\/console\.[0-9a-f]{16}\.css"\/>/);
        expect(page.document, path).not.toContain("<script");
        expect(page.headers.get("content-security-policy"), path).toMatch(/'nonce-[^']+'/);
      }
    }
    const signedIn = await answerOf("/en/console/sign-in", ownerCookie);
    expect([signedIn.status, signedIn.location]).toEqual([307, "/en/console"]);
    const codeStep = await answerOf("/fr/console/sign-in/code", null);
    expect([codeStep.status, codeStep.location]).toEqual([307, "/fr/console/sign-in"]);
  });

  it("serves the stylesheet the pages link, cached for good", async () => {
    const [, page] = pageAnswers().find(([, answer]) => answer.status === 200)!;
    const href = /href="(\/_lanes\/console\.[0-9a-f]{16}\.css)"/.exec(page.document)![1]!;
    const response = await fetch(baseUrl + href, { headers: { "accept-encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(await response.text()).toContain(".card-table");
  });
});
