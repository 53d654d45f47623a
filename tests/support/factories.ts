import { randomInt } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { onboardMerchant } from "@/lib/merchants/onboard-merchant";
import type { OnboardMerchantInput } from "@/lib/merchants/onboard-merchant.schema";

let merchantCounter = 0;

/** A fresh merchant per test keeps tests independent on one shared database. */
export async function createMerchant(overrides: Partial<OnboardMerchantInput> = {}) {
  merchantCounter += 1;
  return onboardMerchant(await getDb(), {
    name: `Test Shop ${process.pid}-${merchantCounter}-${randomInt(1e6)}`,
    countries: ["DZA", "MAR", "TUN"],
    redirectUrl: "https://shop.example/return",
    origins: ["https://shop.example"],
    ...overrides,
  });
}

/** A valid, unique E.164 phone number. */
export function randomPhone(countryPrefix = "+213"): string {
  return `${countryPrefix}${String(randomInt(100_000_000, 999_999_999))}`;
}
