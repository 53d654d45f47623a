import { describe, expect, it, beforeAll } from "vitest";
import { getDb } from "@/lib/db/client";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { paymentLinkView } from "@/lib/payment-links/payment-link.schema";
import { clientAuth } from "../support/api";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";

const { api } = useTestGateway();
let merchant: OnboardedMerchant;
let other: OnboardedMerchant;

const create = (body: object, who = merchant) => api.post("/api/v1/payment-links", body, clientAuth(who));
const fixed = { title: "Handmade bag", amount: 2500, currency: "DZD", countryCode: "DZA" };
const detailsOf = (response: { body: { error: { details: { path: string; message: string }[] } } }) =>
  Object.fromEntries(response.body.error.details.map((detail) => [detail.path, detail.message]));

beforeAll(async () => {
  merchant = await createMerchant();
  other = await createMerchant({ countries: ["MAR"] });
  await getDb();
});

describe("POST /api/v1/payment-links", () => {
  it("creates a fixed-amount link with its url, QR image and zero payments", async () => {
    const response = await create({
      ...fixed,
      description: "Leather, made in Tlemcen",
      locale: "fr",
      metaData: { sku: "BAG-1" },
    });
    expect(response.status).toBe(201);
    const link = paymentLinkView.parse(response.body.data);
    expect(link).toMatchObject({
      title: "Handmade bag",
      description: "Leather, made in Tlemcen",
      amount: 2500,
      minAmount: null,
      maxAmount: null,
      currency: "DZD",
      countryCode: "DZA",
      captureMethod: "DIRECT",
      reusable: true,
      active: true,
      expiresAt: null,
      locale: "fr",
      paymentsCount: 0,
      succeededAmount: 0,
    });
    expect(link.id).toMatch(/^plink_[0-9A-Z]{26}$/);
    expect(new URL(link.url).pathname).toBe(`/l/${link.id}`);
    expect(new URL(link.qrImageUrl).pathname).toBe(`/l/${link.id}/qr.png`);
  });

  it("creates an open-amount link with bounds, kept exactly in the currency's decimals (TND has 3)", async () => {
    const response = await create({
      title: "Donation",
      currency: "TND",
      countryCode: "TUN",
      minAmount: 0.5,
      maxAmount: 1000.125,
      reusable: false,
      captureMethod: "RESERVATION",
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      amount: null,
      minAmount: 0.5,
      maxAmount: 1000.125,
      reusable: false,
      captureMethod: "RESERVATION",
      locale: "en",
    });
  });

  it("refuses every rule broken, each named by its field", async () => {
    const response = await create({
      title: "x".repeat(101),
      description: "d".repeat(501),
      amount: -1,
      currency: "dzd",
      countryCode: "DZ",
      captureMethod: "LATER",
      reusable: "no",
      expiresAt: "tomorrow",
      locale: "de",
      metaData: "sku",
    });
    expect(response.status).toBe(400);
    expect(response.body.error.name).toBe("validation_error");
    expect(Object.keys(detailsOf(response)).sort()).toEqual(
      [
        "amount",
        "captureMethod",
        "countryCode",
        "currency",
        "description",
        "expiresAt",
        "locale",
        "metaData",
        "reusable",
        "title",
      ].sort(),
    );
  });

  it("requires title, currency and countryCode", async () => {
    const response = await create({});
    expect(response.status).toBe(400);
    expect(Object.keys(detailsOf(response)).sort()).toEqual(["countryCode", "currency", "title"]);
  });

  it("refuses an empty title, an amount its currency cannot hold, zero, and bounds the wrong way round", async () => {
    expect(detailsOf(await create({ ...fixed, title: "   " }))).toHaveProperty("title");
    expect(detailsOf(await create({ ...fixed, amount: 10.001 }))).toEqual({
      amount: "must have at most 2 decimal places for DZD",
    });
    expect(detailsOf(await create({ ...fixed, amount: 0 }))).toEqual({ amount: "must be greater than zero" });
    expect(detailsOf(await create({ ...fixed, amount: 1_000_000_001 }))).toEqual({
      amount: "must be at most 1000000000",
    });
    const { amount: _omitted, ...open } = fixed;
    expect(detailsOf(await create({ ...open, minAmount: 50, maxAmount: 10 }))).toEqual({
      maxAmount: "must be at least minAmount",
    });
    expect(detailsOf(await create({ ...fixed, minAmount: 1, maxAmount: 5000 }))).toEqual({
      minAmount: "must be omitted when amount is given (a fixed amount has no bounds)",
      maxAmount: "must be omitted when amount is given (a fixed amount has no bounds)",
    });
    expect(detailsOf(await create({ ...open, minAmount: 1.5, currency: "XOF" }))).toEqual({
      minAmount: "must be a whole number for XOF",
    });
  });

  it("refuses a country the service has not enabled and an expiry in the past", async () => {
    const response = await create({ ...fixed, countryCode: "DZA", expiresAt: "2020-01-01T00:00:00Z" }, other);
    expect(response.status).toBe(400);
    expect(detailsOf(response)).toEqual({
      countryCode: "is not enabled for this service (MAR)",
      expiresAt: "must be in the future",
    });
  });

  it("accepts an expiry with an offset and answers it in UTC", async () => {
    const response = await create({ ...fixed, expiresAt: "2099-06-01T12:00:00+01:00" });
    expect(response.status).toBe(201);
    expect(response.body.data.expiresAt).toBe("2099-06-01T11:00:00.000Z");
  });

  it("needs client_auth", async () => {
    const response = await api.post("/api/v1/payment-links", fixed);
    expect(response.status).toBe(401);
  });
});

describe("GET /api/v1/payment-links", () => {
  it("lists the service's links newest first, paged by limit and startingAfter until hasMore is false", async () => {
    const shop = await createMerchant();
    const ids: string[] = [];
    for (const title of ["first", "second", "third"]) ids.push((await create({ ...fixed, title }, shop)).body.data.id);
    const first = await api.get("/api/v1/payment-links?limit=2", clientAuth(shop));
    expect(first.status).toBe(200);
    expect(first.body.data.map((link: { title: string }) => link.title)).toEqual(["third", "second"]);
    expect(first.body.hasMore).toBe(true);
    const second = await api.get(
      `/api/v1/payment-links?limit=2&startingAfter=${first.body.data[1].id}`,
      clientAuth(shop),
    );
    expect(second.body.data.map((link: { id: string }) => link.id)).toEqual([ids[0]]);
    expect(second.body.hasMore).toBe(false);
  });

  it("refuses a bad limit and another service's link as a cursor", async () => {
    const mine = (await create(fixed)).body.data.id;
    expect(detailsOf(await api.get("/api/v1/payment-links?limit=0", clientAuth(merchant)))).toHaveProperty(
      "query.limit",
    );
    const foreign = await api.get(`/api/v1/payment-links?startingAfter=${mine}`, clientAuth(other));
    expect(foreign.status).toBe(400);
    expect(detailsOf(foreign)).toHaveProperty("query.startingAfter");
  });
});

describe("GET /api/v1/payment-links/:id and POST /:id/deactivate", () => {
  it("answers the link, and another service's link (or a malformed id) is 404", async () => {
    const id = (await create(fixed)).body.data.id;
    expect((await api.get(`/api/v1/payment-links/${id}`, clientAuth(merchant))).body.data.id).toBe(id);
    const foreign = await api.get(`/api/v1/payment-links/${id}`, clientAuth(other));
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.name).toBe("not_found");
    expect((await api.post(`/api/v1/payment-links/${id}/deactivate`, {}, clientAuth(other))).status).toBe(404);
    expect((await api.get("/api/v1/payment-links/nope", clientAuth(merchant))).status).toBe(404);
  });

  it("deactivates: 200 with active false, and again answers the same", async () => {
    const id = (await create(fixed)).body.data.id;
    const response = await api.post(`/api/v1/payment-links/${id}/deactivate`, {}, clientAuth(merchant));
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id, active: false });
    expect((await api.post(`/api/v1/payment-links/${id}/deactivate`, {}, clientAuth(merchant))).body.data.active).toBe(
      false,
    );
    expect((await api.get(`/api/v1/payment-links/${id}`, clientAuth(merchant))).body.data.active).toBe(false);
  });
});
