import { describe, expect, it } from "vitest";
import { pageLocaleOf } from "@/lib/i18n/locales";
import {
  EXPIRY_GRACE_MS,
  failedByExpiry,
  intentExpiresAt,
  isExpiredIntent,
  isPastGrace,
} from "@/lib/payments/core/payment-expiry";
import { PAYMENT_STATES } from "@/lib/payments/core/payment-state";

const created = new Date("2026-01-01T10:00:00.000Z");
const expiresAt = intentExpiresAt(created);
const at = (ms: number) => new Date(expiresAt.getTime() + ms);

describe("intent lifetime (contract section 4)", () => {
  it("expires 30 minutes after creation", () => {
    expect(expiresAt.toISOString()).toBe("2026-01-01T10:30:00.000Z");
  });

  it("bites only after the 30 s grace", () => {
    expect(isPastGrace({ expiresAt }, at(0))).toBe(false);
    expect(isPastGrace({ expiresAt }, at(EXPIRY_GRACE_MS))).toBe(false);
    expect(isPastGrace({ expiresAt }, at(EXPIRY_GRACE_MS + 1))).toBe(true);
  });

  it("applies to the open states only", () => {
    const open = PAYMENT_STATES.filter((state) => isExpiredIntent({ state, expiresAt }, at(EXPIRY_GRACE_MS + 1)));
    expect(open).toEqual(["CREATED", "PROCESSING", "REQUIRES_ACTION", "PRE_AUTHORIZED"]);
  });

  it("recognises a payment the expiry failed, and only that one", () => {
    expect(failedByExpiry({ state: "FAILED", failureReason: "expired" })).toBe(true);
    expect(failedByExpiry({ state: "FAILED", failureReason: "insufficient_funds" })).toBe(false);
    expect(failedByExpiry({ state: "CANCELED", failureReason: "expired" })).toBe(false);
  });
});

describe("hosted page language from x-locale", () => {
  it.each([
    ["fr_FR", "fr"],
    ["fr", "fr"],
    ["FR-ca", "fr"],
    ["ar_DZ", "ar"],
    ["ar_MA", "ar"],
    ["en_US", "en"],
    ["de_DE", "en"],
    ["", null],
    [undefined, null],
  ])("%s -> %s", (header, locale) => {
    expect(pageLocaleOf(header)).toBe(locale);
  });
});
