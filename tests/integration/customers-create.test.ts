import { describe, expect, it } from "vitest";
import { clientAuth } from "../support/api";
import { createMerchant, randomPhone } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";

const { api } = useTestGateway();

describe("POST /api/v1/customers", () => {
  it("creates a customer and answers 201 in the success envelope", async () => {
    const merchant = await createMerchant();
    const phone = randomPhone();
    const response = await api.post("/api/v1/customers", { name: "Amina", phone }, clientAuth(merchant));
    expect(response.status).toBe(201);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(response.body).toMatchObject({
      code: 201,
      status: "success",
      data: { name: "Amina", phone, email: null, isActive: true },
    });
    expect(response.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a second customer with the same phone with 409 customer_exists", async () => {
    const merchant = await createMerchant();
    const phone = randomPhone();
    await api.post("/api/v1/customers", { name: "Amina", phone }, clientAuth(merchant));
    const again = await api.post("/api/v1/customers", { name: "Other", phone }, clientAuth(merchant));
    expect(again.status).toBe(409);
    expect(again.body.error.name).toBe("customer_exists");
  });

  it("lists every failing field in validation_error details", async () => {
    const merchant = await createMerchant();
    const response = await api.post("/api/v1/customers", { phone: "0555" }, clientAuth(merchant));
    expect(response.status).toBe(400);
    expect(response.body.error.name).toBe("validation_error");
    expect(response.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["name", "phone"]);
  });

  it("answers a JSON 404 for an unknown /api/v1 path", async () => {
    const response = await api.get("/api/v1/nothing-here");
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 404, status: "error", error: { name: "not_found" } });
  });
});
