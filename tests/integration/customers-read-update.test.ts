import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";

import { clientAuth, type ApiResponse } from "../support/api";
import { createMerchant, randomPhone } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";

const { api } = useTestGateway();

type Merchant = Awaited<ReturnType<typeof createMerchant>>;

const DETAIL_KEYS = ["createdAt", "email", "id", "isActive", "name", "phone", "updatedAt"];
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function createCustomer(merchant: Merchant, fields: Record<string, unknown> = {}) {
  const response = await api.post(
    "/api/v1/customers",
    { name: "Amina Haddad", phone: randomPhone(), ...fields },
    clientAuth(merchant),
  );
  expect(response.status).toBe(201);
  return response.body.data as { id: string; name: string; phone: string; email: string | null; isActive: boolean };
}

const searchPath = (phone: string) => `/api/v1/customers/search/${encodeURIComponent(phone)}`;

/** Two answers a caller cannot tell apart: same status and body but for the request id. */
function withoutRequestId(response: ApiResponse) {
  const { error, ...rest } = response.body;
  const { requestId: _requestId, ...errorRest } = error ?? {};
  return { httpStatus: response.status, ...rest, error: errorRest };
}

function expectNotFound(response: ApiResponse) {
  expect(response.status).toBe(404);
  expect(response.body).toMatchObject({ code: 404, status: "error", error: { name: "not_found" } });
  expect(response.body.error.requestId).toBe(response.headers.get("x-request-id"));
}

describe("GET /api/v1/customers/:id", () => {
  it("answers the customer in the create shape plus createdAt and updatedAt", async () => {
    const merchant = await createMerchant();
    const created = await createCustomer(merchant, { email: "amina@example.com" });
    const response = await api.get(`/api/v1/customers/${created.id}`, clientAuth(merchant));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 200, status: "success", data: created });
    expect(typeof response.body.message).toBe("string");
    expect(Object.keys(response.body.data).sort()).toEqual(DETAIL_KEYS);
    expect(response.body.data.createdAt).toMatch(ISO_8601);
    expect(response.body.data.updatedAt).toMatch(ISO_8601);
  });

  it("answers 404 not_found for an unknown id and for an id that is not a UUID", async () => {
    const merchant = await createMerchant();
    expectNotFound(await api.get(`/api/v1/customers/${randomUUID()}`, clientAuth(merchant)));
    expectNotFound(await api.get("/api/v1/customers/not-a-uuid", clientAuth(merchant)));
    expectNotFound(await api.get("/api/v1/customers/search", clientAuth(merchant)));
  });

  it("hides another merchant's customer behind the same 404 as an unknown id", async () => {
    const merchantA = await createMerchant();
    const merchantB = await createMerchant();
    const customerOfA = await createCustomer(merchantA);
    const foreign = await api.get(`/api/v1/customers/${customerOfA.id}`, clientAuth(merchantB));
    const unknown = await api.get(`/api/v1/customers/${randomUUID()}`, clientAuth(merchantB));
    expectNotFound(foreign);
    expect(withoutRequestId(foreign)).toEqual(withoutRequestId(unknown));
  });
});

describe("GET /api/v1/customers/search/:phone", () => {
  it("finds the customer whether the + arrives raw, as %2B or as a space", async () => {
    const merchant = await createMerchant();
    const created = await createCustomer(merchant);
    const digits = created.phone.slice(1);
    for (const encoded of [`%2B${digits}`, `%2b${digits}`, `+${digits}`, `%20${digits}`]) {
      const response = await api.get(`/api/v1/customers/search/${encoded}`, clientAuth(merchant));
      expect(response.status, encoded).toBe(200);
      expect(response.body.data).toMatchObject(created);
      expect(Object.keys(response.body.data).sort()).toEqual(DETAIL_KEYS);
    }
  });

  it("answers 404 not_found for a phone no customer of the service has", async () => {
    const merchant = await createMerchant();
    expectNotFound(await api.get(searchPath(randomPhone()), clientAuth(merchant)));
  });

  it("refuses a phone that is not E.164 with validation_error on the phone", async () => {
    const merchant = await createMerchant();
    for (const phone of ["0555123456", "%2B12", "abc", "%2B213555x12345"]) {
      const response = await api.get(`/api/v1/customers/search/${phone}`, clientAuth(merchant));
      expect(response.status, phone).toBe(400);
      expect(response.body.error.name).toBe("validation_error");
      expect(response.body.error.details[0].path).toBe("phone");
    }
  });

  it("does not find another merchant's customer, and answers as for an unknown phone", async () => {
    const merchantA = await createMerchant();
    const merchantB = await createMerchant();
    const customerOfA = await createCustomer(merchantA);
    const foreign = await api.get(searchPath(customerOfA.phone), clientAuth(merchantB));
    const unknown = await api.get(searchPath(randomPhone()), clientAuth(merchantB));
    expectNotFound(foreign);
    expect(withoutRequestId(foreign)).toEqual(withoutRequestId(unknown));
  });

  it("keeps phones unique per service only: each merchant finds its own customer", async () => {
    const merchantA = await createMerchant();
    const merchantB = await createMerchant();
    const phone = randomPhone();
    const ofA = await createCustomer(merchantA, { phone, name: "At A" });
    const ofB = await createCustomer(merchantB, { phone, name: "At B" });
    expect((await api.get(searchPath(phone), clientAuth(merchantA))).body.data.id).toBe(ofA.id);
    expect((await api.get(searchPath(phone), clientAuth(merchantB))).body.data.id).toBe(ofB.id);
  });
});

describe("PUT /api/v1/customers/:id", () => {
  it("updates every given field and answers the updated customer with a later updatedAt", async () => {
    const merchant = await createMerchant();
    const created = await createCustomer(merchant);
    const before = (await api.get(`/api/v1/customers/${created.id}`, clientAuth(merchant))).body.data;
    const phone = randomPhone("+216");
    const response = await api.put(
      `/api/v1/customers/${created.id}`,
      { name: "Amina B.", email: "amina@example.com", phone, isActive: false },
      clientAuth(merchant),
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: 200,
      status: "success",
      data: { id: created.id, name: "Amina B.", email: "amina@example.com", phone, isActive: false },
    });
    expect(Object.keys(response.body.data).sort()).toEqual(DETAIL_KEYS);
    expect(response.body.data.createdAt).toBe(before.createdAt);
    expect(Date.parse(response.body.data.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    const after = await api.get(`/api/v1/customers/${created.id}`, clientAuth(merchant));
    expect(after.body.data).toEqual(response.body.data);
  });

  it("changes only the fields sent and leaves the others as they were", async () => {
    const merchant = await createMerchant();
    const created = await createCustomer(merchant, { email: "keep@example.com" });
    const response = await api.put(`/api/v1/customers/${created.id}`, { name: "Only Name" }, clientAuth(merchant));
    expect(response.body.data).toMatchObject({ ...created, name: "Only Name" });
  });

  it("clears the email when it is sent as null", async () => {
    const merchant = await createMerchant();
    const created = await createCustomer(merchant, { email: "gone@example.com" });
    const response = await api.put(`/api/v1/customers/${created.id}`, { email: null }, clientAuth(merchant));
    expect(response.status).toBe(200);
    expect(response.body.data.email).toBeNull();
  });

  it("answers the unchanged customer for an empty body", async () => {
    const merchant = await createMerchant();
    const created = await createCustomer(merchant);
    const response = await api.put(`/api/v1/customers/${created.id}`, {}, clientAuth(merchant));
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject(created);
  });

  it("reactivates a deactivated customer", async () => {
    const merchant = await createMerchant();
    const created = await createCustomer(merchant, { isActive: false });
    expect(created.isActive).toBe(false);
    const response = await api.put(`/api/v1/customers/${created.id}`, { isActive: true }, clientAuth(merchant));
    expect(response.body.data.isActive).toBe(true);
  });

  it("refuses a phone another customer of the service has with 409 customer_exists and changes nothing", async () => {
    const merchant = await createMerchant();
    const first = await createCustomer(merchant);
    const second = await createCustomer(merchant);
    const response = await api.put(
      `/api/v1/customers/${second.id}`,
      { phone: first.phone, name: "Renamed" },
      clientAuth(merchant),
    );
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 409, status: "error", error: { name: "customer_exists" } });
    const unchanged = await api.get(`/api/v1/customers/${second.id}`, clientAuth(merchant));
    expect(unchanged.body.data).toMatchObject(second);
  });

  it("accepts the customer's own phone and a phone used only by another merchant's customer", async () => {
    const merchantA = await createMerchant();
    const merchantB = await createMerchant();
    const ofA = await createCustomer(merchantA);
    const ofB = await createCustomer(merchantB);
    const own = await api.put(`/api/v1/customers/${ofB.id}`, { phone: ofB.phone }, clientAuth(merchantB));
    expect(own.status).toBe(200);
    const shared = await api.put(`/api/v1/customers/${ofB.id}`, { phone: ofA.phone }, clientAuth(merchantB));
    expect(shared.status).toBe(200);
    expect(shared.body.data.phone).toBe(ofA.phone);
  });

  it("lists every invalid field in validation_error details", async () => {
    const merchant = await createMerchant();
    const created = await createCustomer(merchant);
    const response = await api.put(
      `/api/v1/customers/${created.id}`,
      { name: "", email: "not-an-email", phone: "0555", isActive: "yes" },
      clientAuth(merchant),
    );
    expect(response.status).toBe(400);
    expect(response.body.error.name).toBe("validation_error");
    expect(response.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual([
      "email",
      "isActive",
      "name",
      "phone",
    ]);
  });

  it("answers 404 for an unknown or malformed id", async () => {
    const merchant = await createMerchant();
    expectNotFound(await api.put(`/api/v1/customers/${randomUUID()}`, { name: "X" }, clientAuth(merchant)));
    expectNotFound(await api.put("/api/v1/customers/12345", { name: "X" }, clientAuth(merchant)));
    expectNotFound(await api.put("/api/v1/customers/12345", {}, clientAuth(merchant)));
  });

  it("does not let merchant B update merchant A's customer, answering as for an unknown id", async () => {
    const merchantA = await createMerchant();
    const merchantB = await createMerchant();
    const ofA = await createCustomer(merchantA);
    const changes = { name: "Hijacked", isActive: false };
    const foreign = await api.put(`/api/v1/customers/${ofA.id}`, changes, clientAuth(merchantB));
    const unknown = await api.put(`/api/v1/customers/${randomUUID()}`, changes, clientAuth(merchantB));
    expectNotFound(foreign);
    expect(withoutRequestId(foreign)).toEqual(withoutRequestId(unknown));
    const unchanged = await api.get(`/api/v1/customers/${ofA.id}`, clientAuth(merchantA));
    expect(unchanged.body.data).toMatchObject(ofA);
  });
});
