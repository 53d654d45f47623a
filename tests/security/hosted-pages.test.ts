import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { HOSTED_LANE } from "@/app/[locale]/hosted-lane-pages";
import { acceptsPost, isHostedFormPath } from "@/lib/hosted/form-guard";
import proxy, { config } from "@/proxy";
import { useTestGateway } from "../support/test-gateway";

/**
 * Issue 7, security suite item 6 (hosted pages): every page and page route the buyer can
 * reach, found on the file system, goes through the proxy and answers with the headers that
 * forbid framing (CSP frame-ancestors 'none' and X-Frame-Options DENY), caching and leaking
 * the page token in Referer. Cross-site POSTs: the hosted tree changes state only through
 * hosted form routes, which refuse a post whose Sec-Fetch-Site is another site and one without
 * the page's form token (e2e/security.spec.ts, e2e/security-hosted.spec.ts and
 * e2e/no-javascript.spec.ts send the forged requests against the production build).
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const PAGE_TREES = ["app/[locale]", "app/demo"];
/** The ids a hosted URL's dynamic segment is given: an intent's, or a payment's. */
const SAMPLE_INTENT_ID = "pi_0123456789abcdefABCDEFGH";
const SAMPLE_PAYMENT_ID = "3f1c2a9e-5b7d-4c1e-9a2b-8d6e4f0a1b2c";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

/** Every hosted URL shape: `app/[locale]/pay/otp/[paymentId]/page.tsx` becomes `/en/pay/otp/<uuid>`. */
function hostedPaths(): { file: string; path: string }[] {
  return PAGE_TREES.flatMap((tree) =>
    files(path.join(ROOT, tree))
      .filter((file) => /[\\/](page\.tsx|route\.ts)$/.test(file))
      .map((file) => {
        const relative = path.relative(path.join(ROOT, "app"), path.dirname(file));
        const url = relative
          .split(path.sep)
          .filter((segment) => !/^\(.*\)$/.test(segment))
          .map((segment) =>
            segment === "[locale]"
              ? "en"
              : segment.startsWith("[")
                ? segment.includes("intent")
                  ? SAMPLE_INTENT_ID
                  : SAMPLE_PAYMENT_ID
                : segment,
          )
          .join("/");
        return { file: path.relative(ROOT, file), path: `/${url}` };
      }),
  );
}

/**
 * The hosted buyer pages, which the hosted lane serves (lib/hosted/hosted-lane.ts; their headers
 * are held by tests/integration/hosted-door.test.ts): a post to one is still the proxy's to refuse.
 */
const lanePages = Object.entries(HOSTED_LANE.pages).map(([family, { param }]) => ({
  file: `the hosted lane's ${family}`,
  path: `/en/${family}/${param === "intentId" ? SAMPLE_INTENT_ID : SAMPLE_PAYMENT_ID}`,
}));

const REQUIRED_HEADERS: Record<string, RegExp> = {
  "content-security-policy": /(^|;\s*)frame-ancestors 'none'(;|$)/,
  "x-frame-options": /^DENY$/,
  "cache-control": /no-store/,
  "referrer-policy": /^no-referrer$/,
  "x-content-type-options": /^nosniff$/,
};

describe("hosted pages cannot be framed, cached or leak their token", () => {
  const pages = hostedPaths();

  it("finds the hosted pages on the file system", () => {
    // The API never goes through the proxy: it sets its own headers (tests/security/api-headers.test.ts).
    expect(unstable_doesMiddlewareMatch({ config, url: "/api/v1/customers" })).toBe(false);
    const found = [...pages, ...lanePages].map((page) => page.path);
    for (const expected of ["/en/pay/otp/", "/en/pay/card/", "/en/pay/qr/", "/en/pay/return/"]) {
      expect(
        found.some((page) => page.startsWith(expected)),
        expected,
      ).toBe(true);
    }
  });

  it.each(pages.map((page) => [page.path, page] as const))(
    "%s goes through the proxy and answers with every protective header",
    (_label, page) => {
      for (const url of [
        page.path,
        `${page.path}?token=abc&returnUrl=${encodeURIComponent("https://evil.example/")}`,
      ]) {
        expect(unstable_doesMiddlewareMatch({ config, url }), `${page.file}: the proxy must run for ${url}`).toBe(true);
        const response = proxy(
          new NextRequest(`http://gateway.test${url}`, { headers: { "sec-fetch-dest": "iframe" } }),
        );
        for (const [name, pattern] of Object.entries(REQUIRED_HEADERS)) {
          expect(response.headers.get(name) ?? "", `${url}: ${name}`).toMatch(pattern);
        }
      }
    },
  );

  it("the unlocalized and other-language forms of a payUrl carry the same headers, redirects included", () => {
    for (const url of [
      "/pay/otp/3f1c2a9e-5b7d-4c1e-9a2b-8d6e4f0a1b2c?token=t",
      "/ar/pay/card/3f1c2a9e-5b7d-4c1e-9a2b-8d6e4f0a1b2c?token=t",
      "/fr/nothing-here",
    ]) {
      const response = proxy(new NextRequest(`http://gateway.test${url}`));
      for (const [name, pattern] of Object.entries(REQUIRED_HEADERS))
        expect(response.headers.get(name) ?? "", `${url}: ${name}`).toMatch(pattern);
    }
  });
});

// Through the door (tests/support/gateway-server.ts serves the tests through server/door.mjs).
describe("the hosted lane's own answers carry the same headers", () => {
  const gateway = useTestGateway();

  it("a trailing slash's 308 to the page, on each page and the short checkout address", async () => {
    for (const { path: page } of [...lanePages, { path: "/pay/checkout/3f1c2a9e-5b7d-4c1e-9a2b-8d6e4f0a1b2c" }]) {
      const query = `?token=abc&returnUrl=${encodeURIComponent("https://shop.example/")}`;
      const response = await fetch(`${gateway.baseUrl}${page}/${query}`, { redirect: "manual" });
      expect(response.status, page).toBe(308);
      expect(response.headers.get("location"), page).toBe(page + query);
      for (const [name, pattern] of Object.entries(REQUIRED_HEADERS))
        expect(response.headers.get(name) ?? "", `${page}/: ${name}`).toMatch(pattern);
      expect(response.headers.get("x-request-id"), page).toBeTruthy();
    }
  });
});

describe("cross-site POSTs to hosted pages", () => {
  const handlers = PAGE_TREES.flatMap((tree) => files(path.join(ROOT, tree))).filter((file) =>
    /[\\/]route\.ts$/.test(file),
  );

  it("each route handler of the hosted tree taking a POST is a hosted form route (or a console form action)", () => {
    const posting = handlers.filter((file) =>
      /export\s+(async\s+)?(function|const)\s+(POST|PUT|PATCH|DELETE)\b/.test(readFileSync(file, "utf8")),
    );
    expect(posting.length).toBeGreaterThan(0);
    for (const file of posting) {
      const source = readFileSync(file, "utf8");
      // The console's forms: origin checks, the session's forgery token and the role
      // (lib/console/web/console-form-route.ts).
      if (source.includes("export const POST = consoleActionRoute(")) {
        expect(
          acceptsPost(
            hostedPaths()
              .find((page) => page.file === path.relative(ROOT, file))!
              .path.replace(/[^/]+$/, "sign-in"),
          ),
        ).toBe(true);
        continue;
      }
      // A provider's return (CMI posts the buyer back from its own origin): POST is GET, whose
      // outcome is asked of the provider; the body, which the provider's page wrote, is never read.
      if (
        path.relative(ROOT, file) ===
        path.join("app", "[locale]", "pay", "redirect", "[paymentId]", "return", "route.ts")
      ) {
        expect(source).toMatch(/^export const POST = GET;$/m);
        expect(source).not.toMatch(/request\.(formData|text|json|body)/);
        continue;
      }
      expect(source, path.relative(ROOT, file)).toMatch(/export const POST = hostedFormRoute</);
      expect(source, path.relative(ROOT, file)).not.toMatch(
        /export\s+(async\s+)?(function|const)\s+(PUT|PATCH|DELETE)\b/,
      );
      const url = hostedPaths().find((page) => page.file === path.relative(ROOT, file))!.path;
      expect(isHostedFormPath(url), url).toBe(true);
    }
  });

  it("no Server Action is left in the hosted tree: Next.js's Origin check would refuse a plain form post", () => {
    const sources = PAGE_TREES.flatMap((tree) => files(path.join(ROOT, tree))).filter((file) => /\.tsx?$/.test(file));
    for (const file of sources)
      expect(readFileSync(file, "utf8"), path.relative(ROOT, file)).not.toMatch(/^\s*["']use server["']/m);
  });

  it("the proxy answers a POST to any page with the 400 page, before Next.js reads its body", async () => {
    for (const { path: url, file } of [...hostedPaths(), ...lanePages]) {
      if (acceptsPost(url)) continue;
      const response = proxy(
        new NextRequest(`http://gateway.test${url}`, {
          method: "POST",
          body: "x",
          headers: { "content-type": "multipart/form-data; boundary=b" },
        }),
      );
      expect(response.status, file).toBe(400);
      expect(await response.text(), file).toMatch(/<h1[^>]*>This request could not be read<\/h1>/);
    }
  });
});
