import { describe, expect, it } from "vitest";
import { idempotencyKeySchema } from "@/lib/idempotency/idempotency.schema";
import { canonicalJson, requestFingerprint } from "@/lib/idempotency/request-fingerprint";

describe("request fingerprint of an Idempotency-Key", () => {
  it("ignores key order, and nothing else", () => {
    const a = requestFingerprint("POST", "/api/v1/payments/p1/refund", {
      amount: 5,
      description: "d",
      nested: { b: 1, a: [2, { y: 1, x: 0 }] },
    });
    const b = requestFingerprint("POST", "/api/v1/payments/p1/refund", {
      nested: { a: [2, { x: 0, y: 1 }], b: 1 },
      description: "d",
      amount: 5,
    });
    expect(a).toBe(b);
    expect(requestFingerprint("POST", "/api/v1/payments/p1/refund", { amount: 5.01, description: "d" })).not.toBe(
      requestFingerprint("POST", "/api/v1/payments/p1/refund", { amount: 5, description: "d" }),
    );
    expect(requestFingerprint("POST", "/api/v1/payments/p2/refund", {})).not.toBe(
      requestFingerprint("POST", "/api/v1/payments/p1/refund", {}),
    );
  });

  it("treats an absent body like an empty object, and array order as meaningful", () => {
    expect(requestFingerprint("POST", "/x", undefined)).toBe(requestFingerprint("POST", "/x", {}));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ b: undefined, a: null })).toBe('{"a":null}');
  });
});

describe("Idempotency-Key header", () => {
  it("takes 1 to 255 printable characters", () => {
    expect(idempotencyKeySchema.safeParse("a").success).toBe(true);
    expect(idempotencyKeySchema.safeParse("k".repeat(255)).success).toBe(true);
    expect(idempotencyKeySchema.safeParse("k".repeat(256)).success).toBe(false);
    expect(idempotencyKeySchema.safeParse("").success).toBe(false);
    expect(idempotencyKeySchema.safeParse("tab\there").success).toBe(false);
  });
});
