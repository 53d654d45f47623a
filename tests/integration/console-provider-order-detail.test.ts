import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentPage } from "@/app/[locale]/console/_pages/payment-page";
import type { ServiceContext } from "@/lib/auth/principal";
import { getPaymentDetail } from "@/lib/console/payments/get-payment-detail";
import { getDb } from "@/lib/db/client";
import { services } from "@/lib/db/schema";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { payWithRedirect, returnFromRedirect } from "@/lib/payments/hosted/redirect-payment";
import { redirectSimulatorMount } from "@/lib/providers/simulator-mount";
import { chargilyCheckouts } from "@/simulators/chargily/chargily-tables";
import { clictopayOrders } from "@/simulators/clictopay/clictopay-tables";
import { cmiOrders } from "@/simulators/cmi/cmi-tables";
import { satimOrders } from "@/simulators/satim/satim-tables";
import { createConsoleUser } from "../support/console";
import { renderConsolePage, textOf } from "../support/console-pages";
import { createMerchant } from "../support/factories";
import { check, createIntent, paidIntent, proceed, serverHeaders, tokenOf } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

// Issues 43 and 44, contract 13's detail: a payment of a redirect card method shows the
// provider's order number and the authorization code the provider gave (SATIM and ClicToPay:
// approvalCode; CMI: AUTH_CODE), or says the provider gives none (Chargily).

const { api } = useTestGateway();

type Method = "SATIM" | "CHARGILY" | "CLICTOPAY" | "CMI";

const INTENTS: Record<Method, { amount: number; actionCurrencyCode: string; actionCountryCode: string }> = {
  SATIM: { amount: 1500, actionCurrencyCode: "DZD", actionCountryCode: "DZA" },
  CHARGILY: { amount: 2500, actionCurrencyCode: "DZD", actionCountryCode: "DZA" },
  CLICTOPAY: { amount: 1.234, actionCurrencyCode: "TND", actionCountryCode: "TUN" },
  CMI: { amount: 123.45, actionCurrencyCode: "MAD", actionCountryCode: "MAR" },
};

const CARD = { action: "pay", cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

const postForm = (url: string, fields: Record<string, string>) =>
  new Request(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

/** The first form's action of a simulated provider page, as the browser would post it. */
const formAction = (html: string, base: string) =>
  new URL(/<form method="post" action="([^"]+)"/.exec(html)![1]!.replace(/&#38;/g, "&"), base).toString();

/**
 * What the simulated provider itself holds of the paid order (found by the provider's order id): the
 * authorization code it gave.
 */
async function providerBook(method: Method, orderId: string): Promise<{ authorizationCode: string | null }> {
  const db = await getDb();
  switch (method) {
    case "SATIM": {
      const [row] = await db.select().from(satimOrders).where(eq(satimOrders.orderId, orderId));
      return { authorizationCode: row!.approvalCode };
    }
    case "CLICTOPAY": {
      const [row] = await db.select().from(clictopayOrders).where(eq(clictopayOrders.orderId, orderId));
      return { authorizationCode: row!.approvalCode };
    }
    case "CMI": {
      const [row] = await db.select().from(cmiOrders).where(eq(cmiOrders.oid, orderId));
      return { authorizationCode: row!.authCode };
    }
    case "CHARGILY": {
      const [row] = await db.select().from(chargilyCheckouts).where(eq(chargilyCheckouts.id, orderId));
      expect(row).toBeDefined();
      return { authorizationCode: null };
    }
  }
}

/** A payment of `method` the buyer paid on the provider's (simulated) page and came back from. */
async function paidWith(merchant: OnboardedMerchant, method: Method): Promise<string> {
  const intent = await createIntent(api, merchant, INTENTS[method]);
  const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant), { paymentMethodCode: method });
  expect(proceeded.status).toBe(200);
  const token = tokenOf(proceeded.body.data.metadata.payUrl);
  const started = await payWithRedirect(await getDb(), { paymentId: intent.paymentId, token, locale: "en" });
  if (started.kind !== "go") throw new Error(`Pay led to ${started.kind}`);
  if (method === "CMI") {
    const cmi = redirectSimulatorMount("cmi");
    // The browser posts the signed form to CMI's gate, then the card on CMI's page.
    const page = await cmi.handle(postForm(started.form!.action, started.form!.fields));
    expect((await cmi.handle(postForm(formAction(await page.text(), started.form!.action), CARD))).status).toBe(200);
  } else {
    const simulator = redirectSimulatorMount(method.toLowerCase());
    const fields = method === "CHARGILY" ? { ...CARD, paymentMethod: "cib" } : CARD;
    expect((await simulator.handle(postForm(started.formUrl, fields))).status).toBe(303);
  }
  await returnFromRedirect(await getDb(), { paymentId: intent.paymentId, token });
  expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(2);
  return intent.paymentId;
}

async function serviceOf(merchant: OnboardedMerchant): Promise<ServiceContext> {
  const [row] = await (await getDb()).select().from(services).where(eq(services.code, merchant.service));
  return row! as ServiceContext;
}

describe("the console's payment detail of a redirect card method", () => {
  for (const method of ["SATIM", "CLICTOPAY", "CMI"] as const) {
    it(`shows ${method}'s order number and the authorization code ${method} gave`, async () => {
      const merchant = await createMerchant();
      const paymentId = await paidWith(merchant, method);
      const detail = await getPaymentDetail(await getDb(), { service: await serviceOf(merchant), paymentId });
      const orderId = detail.providerOrder!.orderId!;
      const book = await providerBook(method, orderId);
      expect(book.authorizationCode).toMatch(/^\S+$/);
      expect(detail.providerOrder).toEqual({
        orderId,
        authorizationCode: book.authorizationCode,
        givesAuthorizationCode: true,
      });

      const owner = await createConsoleUser([{ merchant, role: "owner" }]);
      const english = textOf(
        await renderConsolePage(paymentPage, { userId: owner.id, locale: "en", params: { paymentId } }),
      );
      expect(english).toContain(`Provider order number ${orderId}`);
      expect(english).toContain(`Authorization code ${book.authorizationCode}`);
      const french = textOf(
        await renderConsolePage(paymentPage, { userId: owner.id, locale: "fr", params: { paymentId } }),
      );
      expect(french).toContain(`Numéro de commande du prestataire ${orderId}`);
      expect(french).toContain(`Code d'autorisation ${book.authorizationCode}`);
      const arabic = textOf(
        await renderConsolePage(paymentPage, { userId: owner.id, locale: "ar", params: { paymentId } }),
      );
      expect(arabic).toContain(`رقم الطلب لدى مزوّد الدفع ${orderId}`);
      expect(arabic).toContain(`رمز التفويض ${book.authorizationCode}`);
    });
  }

  it("shows Chargily's checkout id and says Chargily gives no authorization code", async () => {
    const merchant = await createMerchant();
    const paymentId = await paidWith(merchant, "CHARGILY");
    const detail = await getPaymentDetail(await getDb(), { service: await serviceOf(merchant), paymentId });
    const orderId = detail.providerOrder!.orderId!;
    await providerBook("CHARGILY", orderId);
    expect(detail.providerOrder).toMatchObject({ orderId, authorizationCode: null, givesAuthorizationCode: false });

    const owner = await createConsoleUser([{ merchant, role: "owner" }]);
    const english = textOf(
      await renderConsolePage(paymentPage, { userId: owner.id, locale: "en", params: { paymentId } }),
    );
    expect(english).toContain(`Provider order number ${orderId}`);
    expect(english).toContain("Authorization code None: Chargily Pay gives no authorization code");
    const french = textOf(
      await renderConsolePage(paymentPage, { userId: owner.id, locale: "fr", params: { paymentId } }),
    );
    expect(french).toMatch(/Code d'autorisation Aucun : .+ ne fournit pas de code d'autorisation/);
  });

  it("shows nothing of a provider for a wallet payment", async () => {
    const merchant = await createMerchant();
    const { paymentId } = await paidIntent(api, merchant);
    const detail = await getPaymentDetail(await getDb(), { service: await serviceOf(merchant), paymentId });
    expect(detail.providerOrder).toBeNull();
    const owner = await createConsoleUser([{ merchant, role: "owner" }]);
    expect(
      textOf(await renderConsolePage(paymentPage, { userId: owner.id, locale: "en", params: { paymentId } })),
    ).not.toContain("Provider order number");
  });
});
