import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as payRedirect } from "@/app/[locale]/pay/redirect/[paymentId]/go/route";
import { getConfig, type Config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { redirectPayments } from "@/lib/db/schema";
import { ANTI_BOT_FIELDS, createAntiBotChallenge } from "@/lib/hosted/anti-bot/anti-bot-check";
import { hostedFormToken } from "@/lib/hosted/hosted-form-route";
import { TERMS_ACCEPTED_VALUE, TERMS_FIELD } from "@/lib/hosted/payment-terms";
import { getRedirectPageView } from "@/lib/hosted/views/redirect-page-view";
import { getReturnPageView } from "@/lib/hosted/views/return-page-view";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { returnFromRedirect } from "@/lib/payments/hosted/redirect-payment";
import { redirectSimulatorMount } from "@/lib/providers/simulator-mount";
import { satimOrders } from "@/simulators/satim/satim-tables";
import { createMerchant } from "../support/factories";
import { createIntent, proceed, serverHeaders, tokenOf } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

/**
 * Contract 15, SATIM's certification checklist on the page before SATIM's: the terms of payment
 * ticked and the anti-bot check passed, decided by the server on the form's post (with or
 * without the page's script). A refused post comes back to the page with the message beside
 * the field and registers nothing at SATIM.
 */
const { api } = useTestGateway();

async function proceedWith(merchant: OnboardedMerchant, paymentMethodCode = "SATIM") {
  const intent = await createIntent(api, merchant, { amount: 1500 });
  const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant), { paymentMethodCode });
  expect(proceeded.status).toBe(200);
  return { paymentId: intent.paymentId, token: tokenOf(proceeded.body.data.metadata.payUrl) };
}

/** The page's form posted as a browser posts it: the page token, its form token, and `fields`. */
async function pressPay(paymentId: string, token: string, fields: Record<string, string>, locale = "en") {
  const body = new URLSearchParams({
    token,
    formToken: await hostedFormToken(await getDb(), "redirect", token),
    ...fields,
  });
  const request = new Request(`https://gateway.example/${locale}/pay/redirect/${paymentId}/go`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
    body: body.toString(),
  });
  const response = await payRedirect(request, { params: Promise.resolve({ locale, paymentId }) });
  expect(response.status).toBe(303);
  return response.headers.get("location")!;
}

/** What SATIM holds for the payment: its orders (the simulator's books) and the gateway's registration. */
async function registeredAtSatim(paymentId: string) {
  const db = await getDb();
  const [redirect] = await db.select().from(redirectPayments).where(eq(redirectPayments.paymentId, paymentId));
  const [orders] = redirect?.providerOrderId
    ? await db.select({ n: count() }).from(satimOrders).where(eq(satimOrders.orderId, redirect.providerOrderId))
    : [{ n: 0 }];
  return { providerOrderId: redirect?.providerOrderId ?? null, orders: orders!.n };
}

const TERMS = { [TERMS_FIELD]: TERMS_ACCEPTED_VALUE };
/** The no-script answer: the image's code (the sandbox's 123456 passes too, contract 15). */
const codeAnswer = async (code: string, drawn = "480213") => {
  const check = await createAntiBotChallenge(await getDb(), { code: drawn });
  return { [ANTI_BOT_FIELDS.codeToken]: check.code.token, [ANTI_BOT_FIELDS.code]: code };
};
const query = (location: string) => new URL(location, "https://gateway.example").searchParams;

describe("SATIM's checks before Pay (contract 15)", () => {
  it("refuses the post without the terms ticked: back to the page with a message, nothing registered", async () => {
    const { paymentId, token } = await proceedWith(await createMerchant());
    const location = await pressPay(paymentId, token, await codeAnswer("480213"));
    expect(location).toContain(`/en/pay/redirect/${paymentId}?`);
    expect(query(location).get("notice")).toBe("terms_required");
    expect(await registeredAtSatim(paymentId)).toEqual({ providerOrderId: null, orders: 0 });

    const view = await getRedirectPageView(await getDb(), {
      locale: "en",
      paymentId,
      query: { token, notice: "terms_required", stay: false, search: "" },
    });
    if (view.kind !== "render") throw new Error(view.kind);
    expect(view.buyerChecks).toMatchObject({ termsRefused: true, antiBotFailure: null });
  });

  it("refuses a wrong or missing anti-bot answer, the message beside the field: nothing registered", async () => {
    const { paymentId, token } = await proceedWith(await createMerchant());
    const wrong = await pressPay(paymentId, token, { ...TERMS, ...(await codeAnswer("480214")) });
    expect(query(wrong).get("notice")).toBe("anti_bot_failed");
    const missing = await pressPay(paymentId, token, { ...TERMS, [ANTI_BOT_FIELDS.code]: "" }, "ar");
    expect(missing).toContain(`/ar/pay/redirect/${paymentId}?`);
    expect(query(missing).get("notice")).toBe("anti_bot_failed");
    const both = await pressPay(paymentId, token, await codeAnswer("000000"));
    expect(query(both).get("notice")).toBe("checks_failed");
    expect(await registeredAtSatim(paymentId)).toEqual({ providerOrderId: null, orders: 0 });

    const view = await getRedirectPageView(await getDb(), {
      locale: "en",
      paymentId,
      query: { token, notice: "checks_failed", stay: false, search: "" },
    });
    if (view.kind !== "render") throw new Error(view.kind);
    expect(view.buyerChecks).toMatchObject({ termsRefused: true, antiBotFailure: "failed" });
  });

  it("refuses a replayed anti-bot answer; with the terms and a fresh one, sends the buyer to SATIM", async () => {
    const { paymentId, token } = await proceedWith(await createMerchant());
    const answer = await codeAnswer("480213");
    // Spent by a refused post (terms unticked): the same answer again is a replay.
    expect(query(await pressPay(paymentId, token, answer)).get("notice")).toBe("terms_required");
    expect(query(await pressPay(paymentId, token, { ...TERMS, ...answer })).get("notice")).toBe("anti_bot_failed");
    expect(await registeredAtSatim(paymentId)).toEqual({ providerOrderId: null, orders: 0 });

    const location = await pressPay(paymentId, token, { ...TERMS, ...(await codeAnswer("480213")) });
    expect(location).toMatch(/\/api\/satim-sandbox\/payment\/merchants\/sandbox\/payment\.html\?mdOrder=/);
    expect((await registeredAtSatim(paymentId)).orders).toBe(1);
  });

  it("passes the proof of work the page's script solves (ALTCHA), and the sandbox's 123456 scriptless", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const scripted = await proceedWith(merchant);
    const check = await createAntiBotChallenge(db);
    const solution = await solveChallenge({ challenge: check.challenge, deriveKey });
    const altcha = Buffer.from(JSON.stringify({ challenge: check.challenge, solution })).toString("base64");
    expect(
      await pressPay(scripted.paymentId, scripted.token, { ...TERMS, [ANTI_BOT_FIELDS.solution]: altcha }),
    ).toContain("/api/satim-sandbox/");

    const noScript = await proceedWith(merchant);
    expect(await pressPay(noScript.paymentId, noScript.token, { ...TERMS, ...(await codeAnswer("123456")) })).toContain(
      "/api/satim-sandbox/",
    );
  });

  it("shows the terms link and a fresh anti-bot check on SATIM's page only (ClicToPay's asks neither)", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWith(merchant);
    await db.execute(
      sql`update services set terms_url = 'https://shop.example/terms'
        where id = (select service_id from payments where id = ${paymentId})`,
    );
    const view = await getRedirectPageView(db, { locale: "ar", paymentId, query: { token, stay: false, search: "" } });
    if (view.kind !== "render") throw new Error(view.kind);
    expect(view.buyerChecks).toMatchObject({
      termsUrl: "https://shop.example/terms",
      termsRefused: false,
      antiBotFailure: null,
      sandbox: true,
    });
    expect(view.buyerChecks!.antiBot.code.image).toMatch(/^data:image\/svg\+xml;base64,/);
    // Production's page never names the sandbox's code.
    const holder = globalThis as unknown as { gatewayConfig?: Config };
    const sandboxConfig = getConfig();
    holder.gatewayConfig = { ...sandboxConfig, APP_ENV: "production", isSandbox: false } as Config;
    try {
      const production = await getRedirectPageView(db, {
        locale: "en",
        paymentId,
        query: { token, stay: false, search: "" },
      });
      expect(production.kind === "render" && production.buyerChecks?.sandbox).toBe(false);
    } finally {
      holder.gatewayConfig = sandboxConfig;
    }

    const tunisian = await createIntent(api, merchant, {
      amount: 1.234,
      actionCurrencyCode: "TND",
      actionCountryCode: "TUN",
    });
    const proceeded = await proceed(api, tunisian.paymentId, serverHeaders(merchant), {
      paymentMethodCode: "CLICTOPAY",
    });
    expect(proceeded.status).toBe(200);
    const other = await getRedirectPageView(db, {
      locale: "en",
      paymentId: tunisian.paymentId,
      query: { token: tokenOf(proceeded.body.data.metadata.payUrl), stay: false, search: "" },
    });
    if (other.kind !== "render") throw new Error(other.kind);
    expect(other.buyerChecks).toBeNull();
  });

  it("puts SATIM's logo and toll-free number 3020 on the return page, whatever the outcome", async () => {
    const { paymentId, token } = await proceedWith(await createMerchant());
    const formUrl = await pressPay(paymentId, token, { ...TERMS, ...(await codeAnswer("123456")) });
    await redirectSimulatorMount("satim").handle(
      new Request(formUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ action: "cancel" }).toString(),
      }),
    );
    await returnFromRedirect(await getDb(), { paymentId, token });
    const view = await getReturnPageView(await getDb(), {
      locale: "ar",
      paymentId,
      query: { token, stay: false, search: "" },
    });
    if (view.kind !== "render") throw new Error(view.kind);
    expect(view.outcome).toBe("failed");
    expect(view.providerSupport).toEqual({ logoPath: "/payment-methods/satim.svg", phone: "3020" });
  });
});
