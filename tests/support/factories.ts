import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { serviceClock } from "@/lib/clock";
import { createCustomer } from "@/lib/customers/create-customer";
import { generateCustomerToken } from "@/lib/customers/generate-customer-token";
import { searchCustomerByPhone } from "@/lib/customers/search-customer";
import { getDb, type Db } from "@/lib/db/client";
import { services } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors/api-error";
import { onboardMerchant } from "@/lib/merchants/onboard-merchant";
import type { OnboardedMerchant, OnboardMerchantInput } from "@/lib/merchants/onboard-merchant.schema";

let merchantCounter = 0;

/** A fresh merchant per test keeps tests independent on one shared database (`db`: another one). */
export async function createMerchant(overrides: Partial<OnboardMerchantInput> = {}, db?: Db) {
  merchantCounter += 1;
  return onboardMerchant(db ?? (await getDb()), {
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

/**
 * A customer of `merchant` and a fresh access token pair for it, for tests that need a
 * user_auth principal: pass `accessToken` to `userAuth(merchant, accessToken)`. With a
 * `phone` that already names a customer of the service, that customer gets the token.
 */
export async function createCustomerToken(
  merchant: OnboardedMerchant,
  overrides: { name?: string; phone?: string; email?: string } = {},
) {
  const db = await getDb();
  const [service] = await db.select().from(services).where(eq(services.code, merchant.service));
  if (!service) throw new Error(`No service ${merchant.service}`);
  const phone = overrides.phone ?? randomPhone();
  const customer = await createCustomer(db, {
    serviceId: service.id,
    input: { name: overrides.name ?? "Test Customer", phone, email: overrides.email, isActive: true },
  }).catch(async (error: unknown) => {
    if (error instanceof ApiError && error.errorName === "customer_exists") {
      return searchCustomerByPhone(db, { serviceId: service.id, phone });
    }
    throw error;
  });
  const pair = await generateCustomerToken(db, {
    serviceId: service.id,
    customerId: customer.id,
    clock: serviceClock(service),
  });
  return { customer: { id: customer.id, name: customer.name, phone: customer.phone }, ...pair };
}
