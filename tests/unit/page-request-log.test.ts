import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import proxy from "@/proxy";

const logged = vi.hoisted(() => ({ lines: [] as string[] }));
vi.mock("@/lib/log", async (importOriginal) =>
  (await import("../support/memory-log")).memoryLog(importOriginal, logged.lines, "info"),
);

describe("hosted page requests are logged with the request id", () => {
  it("logs method, path and request id (never the query and its token) and answers the id in x-request-id", () => {
    const path = "/en/pay/otp/3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12";
    const response = proxy(
      new NextRequest(`http://gateway.test${path}?token=s3cr3t-page-token`, {
        headers: { "x-request-id": "page-req-1" },
      }),
    );
    expect(response.headers.get("x-request-id")).toBe("page-req-1");
    const line = logged.lines.map((text) => JSON.parse(text)).find((entry) => entry.requestId === "page-req-1");
    expect(line).toMatchObject({ msg: "page request", method: "GET", path });
    expect(logged.lines.join("\n")).not.toContain("s3cr3t-page-token");
  });

  it("makes up a request id when none came", () => {
    const response = proxy(new NextRequest("http://gateway.test/fr/pay/card/3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12"));
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(logged.lines.some((text) => text.includes(`"requestId":"${id}"`))).toBe(true);
  });
});
