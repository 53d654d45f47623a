import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseConfig } from "@/lib/config";
import { serveMetrics } from "@/lib/http/metrics-route";
import { observePageAnswer } from "@/lib/hosted/log-page-request";
import { pageRouteOf, usePageRoutes } from "@/lib/hosted/page-route";
import { metrics } from "@/lib/metrics/gateway-metrics";
import { genericRouteTemplate } from "@/lib/metrics/route-template";

const logged = vi.hoisted(() => ({ lines: [] as string[] }));
vi.mock("@/lib/log", async (importOriginal) =>
  (await import("../support/memory-log")).memoryLog(importOriginal, logged.lines, "info"),
);

const shared = globalThis as { gatewayConfig?: unknown };
const saved = shared.gatewayConfig;
afterEach(() => {
  shared.gatewayConfig = saved;
});

describe("GET /api/metrics without METRICS_TOKEN", () => {
  it("does not exist: 404 in the error envelope, whatever the credential", async () => {
    shared.gatewayConfig = parseConfig({ ...process.env, METRICS_TOKEN: undefined });
    const answer = await serveMetrics(
      new Request("http://gateway.test/api/metrics", {
        headers: { authorization: "Bearer anything-at-all-anything-at-all-any" },
      }),
    );
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ code: 404, status: "error", error: { name: "not_found" } });
  });

  it("refuses a token shorter than 32 characters at start", () => {
    expect(() => parseConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
  });
});

describe("route templates", () => {
  it("keep words and replace ids, tokens and phones", () => {
    expect(genericRouteTemplate("/api/v1/qr/3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12/image")).toBe("/api/v1/qr/:id/image");
    expect(genericRouteTemplate("/api/v1/customers/search/+213555123456")).toBe("/api/v1/customers/search/:id");
    expect(genericRouteTemplate("/a/b/c/d/e/f/g/h")).toBe("/a/b/c/d/e/f");
  });

  it("name a page by the app folder that serves it; no page is `unmatched` or `other`", () => {
    const app = mkdtempSync(path.join(tmpdir(), "app-"));
    for (const [folder, file] of [
      ["[locale]/console", "page.tsx"],
      ["[locale]/pay/checkout/[id]", "page.tsx"],
      ["(hosted)/l/[id]", "route.ts"],
      ["api/v1/payments", "route.ts"],
    ] as const) {
      mkdirSync(path.join(app, folder), { recursive: true });
      writeFileSync(path.join(app, folder, file), "");
    }
    usePageRoutes(app);
    expect(pageRouteOf("/fr/pay/checkout/3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12", 200)).toBe(
      "/[locale]/pay/checkout/[id]",
    );
    expect(pageRouteOf("/l/plink_01J0ABCDEF", 200)).toBe("/l/[id]");
    expect(pageRouteOf("/ar/console", 200)).toBe("/[locale]/console");
    expect(pageRouteOf("/api/v1/payments", 404)).toBe("unmatched");
    expect(pageRouteOf("/wp-login.php", 404)).toBe("unmatched");
    expect(pageRouteOf("/pay/checkout/3f1c2a9e", 307)).toBe("other");
    expect(pageRouteOf("/_next/static/chunks/abc.js", 200)).toBe("/_next/static");
  });

  it("knows the routes Next.js serves from this app's folders, and no private folder", () => {
    usePageRoutes();
    expect(pageRouteOf("/ar/pay/checkout/3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12/continue", 303)).toBe(
      "/[locale]/pay/checkout/[paymentId]/continue",
    );
    expect(pageRouteOf("/ar/console/_pages", 404)).toBe("unmatched");
  });
});

describe("page answers (issue 42 item 11)", () => {
  it("are logged like API requests, with status and duration, never the query, counted by route template", async () => {
    const app = mkdtempSync(path.join(tmpdir(), "app-"));
    mkdirSync(path.join(app, "[locale]/pay/otp/[id]"), { recursive: true });
    writeFileSync(path.join(app, "[locale]/pay/otp/[id]/page.tsx"), "");
    usePageRoutes(app);
    const series = { route: "/[locale]/pay/otp/[id]", method: "GET", status: "500" };
    const before =
      (await metrics.httpRequests.get()).values.find(
        (value) => value.labels.route === series.route && value.labels.status === "500",
      )?.value ?? 0;
    logged.lines.length = 0;
    observePageAnswer({
      method: "GET",
      url: "/en/pay/otp/3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12?token=s3cr3t-page-token",
      status: 500,
      durationMs: 12.34,
      requestId: "page-req-9",
    });
    const line = JSON.parse(logged.lines.at(-1)!);
    expect(line).toMatchObject({
      msg: "page request",
      requestId: "page-req-9",
      method: "GET",
      path: "/en/pay/otp/3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12",
      route: series.route,
      status: 500,
      durationMs: 12.3,
    });
    expect(logged.lines.join("\n")).not.toContain("s3cr3t-page-token");
    const after = (await metrics.httpRequests.get()).values.find(
      (value) => value.labels.route === series.route && value.labels.status === "500",
    )?.value;
    expect(after).toBe(before + 1);
  });

  it("are counted by the route template the lane that answered names", async () => {
    const route = "/[locale]/console/payments/[paymentId]";
    const countOf = async () =>
      (await metrics.httpRequests.get()).values.find((value) => value.labels.route === route)?.value ?? 0;
    const before = await countOf();
    observePageAnswer({
      method: "GET",
      url: "/fr/console/payments/3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12",
      status: 200,
      durationMs: 4,
      requestId: "page-req-10",
      route,
    });
    expect(JSON.parse(logged.lines.at(-1)!)).toMatchObject({ route, status: 200 });
    expect(await countOf()).toBe(before + 1);
  });
});
