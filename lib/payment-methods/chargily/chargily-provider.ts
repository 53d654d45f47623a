import { createHmac, timingSafeEqual } from "node:crypto";
import { ProviderRefusedError, ProviderUnavailableError } from "../../provider-operations";
import { chargilyDeclaration } from "./declaration/chargily-declaration";
import type { RedirectAccount, RedirectOutcome, RedirectProvider } from "../contract/redirect-provider";
import { chargilyAccountSchema, findChargilyAccount, saveChargilyAccount } from "./chargily-account";
import { callChargily, type ChargilyAnswer, type ChargilyMode } from "./chargily-api-client";

/** Chargily Pay's smallest checkout: 50 DZD (its API refuses less with 422). */
export const CHARGILY_MINIMUM_DINARS = 50;

/**
 * Where a merchant refunds a Chargily payment: its API has no refund call (contract 15, "Afterwards": 409
 * with this).
 */
export const CHARGILY_REFUND_ELSEWHERE =
  "Chargily Pay's API cannot refund a payment: refund it from your Chargily Pay dashboard (pay.chargily.com), " +
  "where the payment is listed under its checkout id.";

const text = (value: unknown): string | null =>
  value === undefined || value === null || value === "" ? null : String(value);
const modeOf = (account: RedirectAccount): ChargilyMode => (account.mode === "live" ? "live" : "test");
const call = (account: RedirectAccount, request: { method: "GET" | "POST"; endpoint: string; body?: unknown }) =>
  callChargily({ secretKey: account.secretKey!, mode: modeOf(account), ...request });

/**
 * Chargily's refusal (401 wrong key, 404 unknown checkout, 422 an invalid request) as a definitive refusal of
 * the operation.
 */
function refusal(answer: ChargilyAnswer): ProviderRefusedError {
  return new ProviderRefusedError(
    `chargily_${answer.status}`,
    text(answer.body.message) ?? `Chargily answered HTTP ${answer.status}`,
  );
}

/**
 * Chargily Pay (`CHARGILY`): the RedirectProvider the archetype (lib/payment-methods/redirect)
 * drives, on Chargily's v2 API (https://dev.chargily.com/pay-v2/): a checkout created when the
 * buyer presses Pay, the buyer sent to its checkout_url in the page's language, the outcome
 * from its signed webhook (notifications) and from GET /checkouts/{id} on the return and in
 * reconciliation. Chargily counts in whole dinars: an amount with centimes is refused at
 * proceed, never rounded.
 */
export const chargilyProvider: RedirectProvider = {
  provider: "chargily",
  page: { words: { intro: "introChargily", logoAlt: "logoAltChargily" } },
  requiresActionMessage: "Please pay with your CIB or EDAHABIA card on the Chargily Pay page.",
  amountRefusal(amountMinor, currency) {
    if (currency !== "DZD") return "Chargily Pay takes Algerian dinars (DZD) only";
    if (amountMinor % 100 !== 0) return "Chargily Pay takes whole dinars only (no centimes)";
    if (amountMinor < CHARGILY_MINIMUM_DINARS * 100)
      return `under Chargily Pay's minimum of ${CHARGILY_MINIMUM_DINARS} DZD`;
    return null;
  },
  // Chargily keeps no merchant order number: this one travels in the checkout's metadata, for the merchant's books.
  orderNumberFor: (paymentId, attempt) => `${paymentId}-${attempt}`,
  account: findChargilyAccount,
  async register(account, order) {
    const answer = await call(account, {
      method: "POST",
      endpoint: "checkouts",
      body: {
        amount: order.amountMinor / 100,
        currency: "dzd",
        success_url: order.returnUrl,
        failure_url: order.returnUrl,
        webhook_endpoint: order.notifyUrl,
        locale: order.locale,
        description: order.reference.slice(0, 255),
        metadata: { order_number: order.orderNumber, reference: order.reference },
      },
    });
    const orderId = text(answer.body.id);
    const formUrl = text(answer.body.checkout_url);
    if (answer.status >= 300 || !orderId || !formUrl) throw refusal(answer);
    return { orderId, formUrl };
  },
  async outcome({ account, orderId }) {
    const answer = await call(account, { method: "GET", endpoint: `checkouts/${encodeURIComponent(orderId)}` });
    if (answer.status !== 200)
      throw new ProviderUnavailableError(`Chargily GET /checkouts/${orderId} answered HTTP ${answer.status}`);
    return outcomeOfCheckout(answer.body);
  },
  async refund() {
    throw new ProviderRefusedError("chargily_no_refund", CHARGILY_REFUND_ELSEWHERE);
  },
  reservations: null,
  // Its API cannot give a late payment back: the checkout is expired with its payment, so nobody pays it after.
  async closeUnpaid({ account, orderId }) {
    const answer = await call(account, { method: "POST", endpoint: `checkouts/${encodeURIComponent(orderId)}/expire` });
    if (answer.status === 200) return "released";
    if (answer.status === 404) return "nothing_held";
    if (answer.status !== 422) throw refusal(answer);
    // 422: no longer pending. Paid meanwhile (the buyer beat the expiry): Chargily cannot give it back through
    // its API, so the operation fails saying where the merchant refunds it; otherwise nothing is payable.
    const status = outcomeOfCheckout(
      (await call(account, { method: "GET", endpoint: `checkouts/${encodeURIComponent(orderId)}` })).body,
    );
    if (status.kind === "paid")
      throw new ProviderRefusedError(
        "chargily_paid_after_expiry",
        `Paid after its payment expired. ${CHARGILY_REFUND_ELSEWHERE}`,
      );
    return "nothing_held";
  },
  refundElsewhere: CHARGILY_REFUND_ELSEWHERE,
  refundedTotal: null,
  // The authorization code: a Chargily checkout says paid or not, never the card's authorization code.
  givesAuthorizationCode: false,
  countries: chargilyDeclaration.catalog.countries,
  credentialFields: [
    { name: "mode", labelKey: "chargilyMode", secret: false },
    { name: "secretKey", labelKey: "chargilySecretKey", secret: true },
  ],
  saveAccount: (db, { serviceId, settings }) =>
    saveChargilyAccount(db, { serviceId, account: chargilyAccountSchema.parse(settings) }),
  // GET /balance: harmless, and answers 401 to a wrong key.
  async testConnection(account) {
    try {
      const answer = await call(account, { method: "GET", endpoint: "balance" });
      if (answer.status === 401 || answer.status === 403) return "wrong_credentials";
      return answer.status === 200 ? "ok" : "unavailable";
    } catch {
      return "unavailable";
    }
  },
  notifications: {
    read(account, { body, headers }) {
      if (!verifyChargilySignature(body, headers.get("signature"), account.secretKey!)) return null;
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return null;
      }
      // A test-mode event never settles a live merchant's payment, nor the other way round.
      if ((String(event.livemode) === "true") !== (modeOf(account) === "live")) return null;
      const checkout = (event.data ?? {}) as Record<string, unknown>;
      const orderId = text(checkout.id);
      if (event.entity !== "event" || !orderId) return null;
      return { orderId, outcome: outcomeOfCheckout(checkout) };
    },
  },
};

/**
 * Chargily's webhook signature (its SDK's verifySignature): the `signature` header is the hex
 * HMAC-SHA256 of the raw body with the merchant's secret key, compared in constant time.
 */
export function verifyChargilySignature(body: string, signature: string | null, secretKey: string): boolean {
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = createHmac("sha256", secretKey).update(body, "utf8").digest();
  return timingSafeEqual(expected, Buffer.from(signature, "hex"));
}

/**
 * A checkout (GET /checkouts/{id}, or a webhook's data) as an outcome. status: pending and
 * processing await the buyer; paid; failed, canceled and expired end it unpaid. `amount` is in
 * dinars.
 */
export function outcomeOfCheckout(checkout: Record<string, unknown>): RedirectOutcome {
  const status = text(checkout.status);
  switch (status) {
    case "paid":
      return {
        kind: "paid",
        amountMinor: Math.round(Number(checkout.amount) * 100),
        approvalCode: null,
        maskedPan: null,
      };
    case "failed":
    case "canceled":
    case "expired":
      return { kind: "declined", code: status, message: `Chargily checkout ${status}` };
    case "pending":
    case "processing":
      return { kind: "awaiting_buyer" };
    default:
      throw new ProviderUnavailableError(`Chargily answered a checkout with an unknown status ${status ?? "(none)"}`);
  }
}
