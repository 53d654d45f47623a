import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import proxy, { config } from "@/proxy";
import { contentSecurityPolicy, hostedPageHeaders, newNonce, noStore } from "@/lib/http/security-headers";
import { parseConfig } from "@/lib/config";
import { inProduction } from "../support/production-config";

function directives(policy: string): Map<string, string> {
  return new Map(
    policy.split(";").map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values.join(" ")];
    }),
  );
}

describe("contentSecurityPolicy", () => {
  it("allows scripts and styles only with the request's nonce, never inline or eval", () => {
    const policy = directives(contentSecurityPolicy({ nonce: "abc123==" }));
    expect(policy.get("script-src")).toBe("'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(policy.get("style-src")).toBe("'self' 'nonce-abc123=='");
    expect([...policy.values()].join(" ")).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it("admits the build's inlined stylesheets by their hash only, still with no unsafe-inline", () => {
    const hash = "'sha256-C2F6D7+KDkJ0PskqSXcD0GRRxWADs3E4r0NY7PvVp5c='";
    const policy = directives(contentSecurityPolicy({ nonce: "n", inlineStyles: [hash] }));
    expect(policy.get("style-src")).toBe(`'self' 'nonce-n' ${hash}`);
    expect(policy.get("script-src")).not.toContain("sha256");
  });

  it("forbids framing, plugins, base rewriting and posting forms elsewhere", () => {
    const policy = directives(contentSecurityPolicy({ nonce: "n" }));
    expect(policy.get("frame-ancestors")).toBe("'none'");
    expect(policy.get("object-src")).toBe("'none'");
    expect(policy.get("base-uri")).toBe("'none'");
    expect(policy.get("form-action")).toBe("'self'");
    expect(policy.get("default-src")).toBe("'self'");
  });

  it("allows eval only for next dev, and upgrades requests only over https", () => {
    expect(contentSecurityPolicy({ nonce: "n", development: true })).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy({ nonce: "n" })).not.toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy({ nonce: "n", upgradeInsecureRequests: true })).toContain("upgrade-insecure-requests");
  });
});

describe("the card page's policy for Stripe.js", () => {
  const cardPolicy = () =>
    directives(
      proxy(
        new NextRequest("https://pay.example/en/pay/card/3f0c1a52-6f7e-4d8a-9d5e-0a1b2c3d4e5f?token=t"),
      ).headers.get("content-security-policy")!,
    );

  it("admits in production exactly the hosts Stripe documents for Stripe.js, on the card page only", async () => {
    const [card, otp] = await inProduction(async () => [
      cardPolicy(),
      directives(
        proxy(
          new NextRequest("https://pay.example/en/pay/otp/3f0c1a52-6f7e-4d8a-9d5e-0a1b2c3d4e5f?token=t"),
        ).headers.get("content-security-policy")!,
      ),
    ]);
    expect(card.get("script-src")).toMatch(
      /^'self' 'nonce-[^']+' 'strict-dynamic' https:\/\/js\.stripe\.com https:\/\/\*\.js\.stripe\.com$/,
    );
    expect(card.get("frame-src")).toBe("https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com");
    expect(card.get("connect-src")).toBe("'self' https://api.stripe.com");
    expect(card.get("frame-ancestors")).toBe("'none'");
    expect([...otp.values()].join(" ")).not.toContain("stripe");
  });

  it("lets only the page before a provider's reach CMI_URL's origin (its form) and Chargily's (Pay's 303)", () => {
    const holder = globalThis as unknown as { gatewayConfig?: ReturnType<typeof parseConfig> };
    const sandbox = holder.gatewayConfig;
    holder.gatewayConfig = parseConfig({
      APP_ENV: "production",
      DATABASE_URL: "postgres://prod.invalid/db",
      GATEWAY_SECRET: "x".repeat(44),
      PUBLIC_BASE_URL: "https://pay.example",
      WALLET_PROVIDER_URL: "https://wallet.example",
      WALLET_PROVIDER_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      CMI_URL: "https://testpayment.cmi.co.ma/",
    });
    try {
      const policyOf = (path: string) =>
        directives(
          proxy(new NextRequest(`https://pay.example${path}?token=t`)).headers.get("content-security-policy")!,
        );
      expect(policyOf("/en/pay/redirect/3f0c1a52-6f7e-4d8a-9d5e-0a1b2c3d4e5f").get("form-action")).toBe(
        "'self' https://testpayment.cmi.co.ma https://pay.chargily.net",
      );
      expect(policyOf("/en/pay/otp/3f0c1a52-6f7e-4d8a-9d5e-0a1b2c3d4e5f").get("form-action")).toBe("'self'");
    } finally {
      holder.gatewayConfig = sandbox;
    }
  });

  it("admits no other origin in the sandbox: its Stripe.js stand-in is served by the gateway itself", () => {
    const card = cardPolicy();
    expect([...card.values()].join(" ")).not.toContain("stripe");
    expect(card.get("connect-src")).toBe("'self'");
    expect(card.has("frame-src")).toBe(false);
  });
});

describe("newNonce", () => {
  it("is 16 random bytes in base64, fresh each time", () => {
    const nonces = new Set(Array.from({ length: 200 }, newNonce));
    expect(nonces.size).toBe(200);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});

describe("proxy", () => {
  const payPath = "/pay/otp/3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12?token=t0k&returnUrl=https%3A%2F%2Fshop.example%2Fr";

  it("sends a payUrl without locale to the buyer's Accept-Language, keeping the query string", () => {
    const response = proxy(
      new NextRequest(`http://gateway.test${payPath}`, { headers: { "accept-language": "ar-DZ,ar;q=0.9,fr;q=0.8" } }),
    );
    expect(response.status).toBe(307);
    expect(
      new URL(response.headers.get("location")!).pathname + new URL(response.headers.get("location")!).search,
    ).toBe(`/ar${payPath}`);
  });

  it("falls back to French, then English, as Accept-Language allows", () => {
    const french = proxy(new NextRequest(`http://gateway.test${payPath}`, { headers: { "accept-language": "fr-FR" } }));
    expect(new URL(french.headers.get("location")!).pathname).toMatch(/^\/fr\/pay\/otp\//);
    const other = proxy(new NextRequest(`http://gateway.test${payPath}`, { headers: { "accept-language": "de-DE" } }));
    expect(new URL(other.headers.get("location")!).pathname).toMatch(/^\/en\/pay\/otp\//);
    const none = proxy(new NextRequest(`http://gateway.test${payPath}`));
    expect(new URL(none.headers.get("location")!).pathname).toMatch(/^\/en\/pay\/otp\//);
  });

  it("keeps the URL's locale over Accept-Language, and sets no locale cookie", () => {
    const response = proxy(
      new NextRequest(`http://gateway.test/fr${payPath}`, { headers: { "accept-language": "ar" } }),
    );
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("answers every page, redirects included, with the security headers and no-store", () => {
    for (const path of [payPath, `/en${payPath}`, "/demo/return?paymentId=x&statusCode=2"]) {
      const response = proxy(new NextRequest(`http://gateway.test${path}`));
      expect(response.headers.get("cache-control"), path).toBe(noStore);
      for (const [name, value] of Object.entries(hostedPageHeaders))
        expect(response.headers.get(name), path).toBe(value);
      expect(response.headers.get("content-security-policy"), path).toMatch(/frame-ancestors 'none'/);
    }
  });

  it("hands Next.js a fresh nonce per request, the same one the response's CSP names", () => {
    const first = proxy(new NextRequest(`http://gateway.test/en${payPath}`));
    const second = proxy(new NextRequest(`http://gateway.test/en${payPath}`));
    const nonceOf = (policy: string | null) => /'nonce-([^']+)'/.exec(policy ?? "")?.[1];
    expect(nonceOf(first.headers.get("content-security-policy"))).toBeTruthy();
    expect(nonceOf(first.headers.get("content-security-policy"))).not.toBe(
      nonceOf(second.headers.get("content-security-policy")),
    );
    // NextResponse.next({ request: { headers } }) forwards overridden request headers this way.
    expect(first.headers.get("x-middleware-request-x-nonce")).toBe(
      nonceOf(first.headers.get("content-security-policy")),
    );
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(
      first.headers.get("content-security-policy"),
    );
  });

  it("leaves the demo merchant's page unlocalized", () => {
    const response = proxy(new NextRequest("http://gateway.test/demo/return?paymentId=x"));
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("x-middleware-rewrite")).toBeNull();
  });

  it("skips the API, Next's assets and files", () => {
    const matcher = new RegExp(`^${config.matcher[0]}$`);
    expect(matcher.test("/pay/otp/x")).toBe(true);
    expect(matcher.test("/fr/pay/return/x")).toBe(true);
    expect(matcher.test("/api/v1/payments/intents")).toBe(false);
    expect(matcher.test("/_next/static/chunks/a.js")).toBe(false);
    expect(matcher.test("/favicon.ico")).toBe(false);
    expect(matcher.test("/icon.svg")).toBe(false);
  });
});
