import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { customers, savedCards, services } from "@/lib/db/schema";
import { cardProviderPaymentMethods } from "@/simulators/card/card-tables";
import type { ServiceContext } from "@/lib/auth/principal";
import { ApiError } from "@/lib/errors/api-error";
import { searchCustomers } from "@/lib/console/customers/search-customers";
import { getCustomerDetail } from "@/lib/console/customers/get-customer-detail";
import { deactivateCustomer, deleteCustomerCard } from "@/lib/console/customers/customer-actions";
import { consoleMerchant, storedPayment } from "../support/console-payments";
import { useTestGateway } from "../support/test-gateway";
import { payWithNewCard, TEST_CARDS } from "../support/cards";
import { createMerchant } from "../support/factories";
import { serviceIdOf } from "../support/payments";

const { api } = useTestGateway();

async function serviceOf(serviceId: string): Promise<ServiceContext> {
  const [row] = await (await getDb()).select().from(services).where(eq(services.id, serviceId));
  return row! as ServiceContext;
}

const names = (rows: { name: string }[]) => rows.map((row) => row.name);

describe("console customers: search by phone, name or email", () => {
  let serviceId: string;
  beforeAll(async () => {
    ({ serviceId } = await consoleMerchant());
    await storedPayment(serviceId, { phone: "+213661000001", name: "Amina Benali", email: "amina@shop.example" });
    await storedPayment(serviceId, { phone: "+213661000002", name: "Amine Haddad", email: null });
    await storedPayment(serviceId, { phone: "+212600000003", name: "Karim 100%_Sure", email: "k.alaoui@mail.example" });
    const other = await consoleMerchant();
    await storedPayment(other.serviceId, {
      phone: "+213661000009",
      name: "Amina Elsewhere",
      email: "amina@other.example",
    });
  });

  it("finds by the beginning of the name, case-insensitive, only in the service", async () => {
    expect(names(await searchCustomers(await getDb(), { serviceId, query: "amin" }))).toEqual([
      "Amina Benali",
      "Amine Haddad",
    ]);
    expect(names(await searchCustomers(await getDb(), { serviceId, query: "AMINA b" }))).toEqual(["Amina Benali"]);
  });

  it("finds by the beginning of the email", async () => {
    expect(names(await searchCustomers(await getDb(), { serviceId, query: "k.ala" }))).toEqual(["Karim 100%_Sure"]);
    expect(names(await searchCustomers(await getDb(), { serviceId, query: "amina@" }))).toEqual(["Amina Benali"]);
  });

  it("finds by the whole phone, with or without +", async () => {
    expect(names(await searchCustomers(await getDb(), { serviceId, query: "+213661000002" }))).toEqual([
      "Amine Haddad",
    ]);
    expect(names(await searchCustomers(await getDb(), { serviceId, query: "213 661 000 002" }))).toEqual([
      "Amine Haddad",
    ]);
  });

  it("takes LIKE's wildcards literally, and an empty search finds nobody", async () => {
    expect(names(await searchCustomers(await getDb(), { serviceId, query: "karim 100%_" }))).toEqual([
      "Karim 100%_Sure",
    ]);
    expect(await searchCustomers(await getDb(), { serviceId, query: "%" })).toEqual([]);
    expect(await searchCustomers(await getDb(), { serviceId, query: "  " })).toEqual([]);
  });
});

describe("console customer page", () => {
  it("lists a customer's payments newest first, its cards (brand, last 4, expiry); no other merchant's", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { card: TEST_CARDS.mastercard, save: true });
    const serviceId = await serviceIdOf(merchant);
    const db = await getDb();
    const [customer] = await db.select().from(customers).where(eq(customers.phone, paid.userId));
    const older = await storedPayment(serviceId, { phone: paid.userId, createdAt: new Date("2026-01-01T00:00:00Z") });

    const detail = await getCustomerDetail(db, { serviceId, customerId: customer!.id });
    expect(detail.customer).toMatchObject({ phone: paid.userId, isActive: true });
    expect(detail.payments.rows.map((row) => row.id)).toEqual([paid.paymentId, older.id]);
    expect(detail.cards).toEqual([
      {
        id: expect.any(String),
        brand: "mastercard",
        last4: "4444",
        expMonth: expect.any(Number),
        expYear: expect.any(Number),
        lastUsedAt: expect.any(Date),
      },
    ]);

    const other = await consoleMerchant();
    await expect(getCustomerDetail(db, { serviceId: other.serviceId, customerId: customer!.id })).rejects.toMatchObject(
      { errorName: "not_found" },
    );
  });

  it("deletes a saved card via the cards domain: off the page, detached at the provider; others can't", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { save: true });
    const serviceId = await serviceIdOf(merchant);
    const db = await getDb();
    const [customer] = await db.select().from(customers).where(eq(customers.phone, paid.userId));
    const [card] = await db.select().from(savedCards).where(eq(savedCards.customerId, customer!.id));

    const other = await consoleMerchant();
    const refused = deleteCustomerCard(db, {
      service: await serviceOf(other.serviceId),
      customerId: customer!.id,
      cardId: card!.id,
    });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ errorName: "not_found" });

    await deleteCustomerCard(db, { service: await serviceOf(serviceId), customerId: customer!.id, cardId: card!.id });
    expect((await getCustomerDetail(db, { serviceId, customerId: customer!.id })).cards).toEqual([]);
    const [method] = await db
      .select()
      .from(cardProviderPaymentMethods)
      .where(eq(cardProviderPaymentMethods.id, card!.providerPaymentMethodId));
    expect(method!.detachedAt).not.toBeNull();
  });

  it("deactivates a customer of the service only", async () => {
    const { serviceId } = await consoleMerchant();
    const stored = await storedPayment(serviceId);
    const other = await consoleMerchant();
    await expect(
      deactivateCustomer(await getDb(), { serviceId: other.serviceId, customerId: stored.customer.id }),
    ).rejects.toMatchObject({ errorName: "not_found" });
    expect((await deactivateCustomer(await getDb(), { serviceId, customerId: stored.customer.id })).isActive).toBe(
      false,
    );
    expect(
      (await getCustomerDetail(await getDb(), { serviceId, customerId: stored.customer.id })).customer.isActive,
    ).toBe(false);
  });
});
