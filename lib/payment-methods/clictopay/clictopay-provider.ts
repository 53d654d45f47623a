import { createHash } from "node:crypto";
import { ProviderRefusedError, ProviderUnavailableError } from "../../provider-operations";
import { clictopayDeclaration } from "./declaration/clictopay-declaration";
import type { RedirectAccount, RedirectOutcome, RedirectProvider } from "../contract/redirect-provider";
import { clictopayAccountSchema, findClictopayAccount, saveClictopayAccount } from "./clictopay-account";
import { callClictopay, type ClictopayAnswer } from "./clictopay-rest-client";
import { refundedAmountOf } from "../redirect/refunded-amount";

/** ISO 4217 numeric code of the Tunisian dinar, which ClicToPay takes alone. */
export const CLICTOPAY_CURRENCY = "788";

const text = (value: unknown): string | null =>
  value === undefined || value === null || value === "" ? null : String(value);
const errorCodeOf = (answer: ClictopayAnswer) => text(answer.errorCode ?? answer.ErrorCode) ?? "0";
const errorMessageOf = (answer: ClictopayAnswer) => text(answer.errorMessage ?? answer.ErrorMessage) ?? "refused";
const refusal = (answer: ClictopayAnswer) =>
  new ProviderRefusedError(`clictopay_${errorCodeOf(answer)}`, errorMessageOf(answer));

/** Credentials every call carries. */
const credentials = (account: RedirectAccount) => ({ userName: account.userName!, password: account.password! });

/**
 * ClicToPay (`CLICTOPAY`): the RedirectProvider the archetype (lib/payment-methods/redirect)
 * drives. Amounts travel in millimes, TND's minor unit (1.234 TND is amount=1234): the
 * gateway's own minor units, so nothing is converted or rounded.
 */
export const clictopayProvider: RedirectProvider = {
  provider: "clictopay",
  // ClicToPay's page is beside its REST base (CLICTOPAY_API_URL).
  page: { words: { intro: "introClictopay", logoAlt: "logoAltClictopay" } },
  requiresActionMessage: "Please pay with your card on the ClicToPay payment page.",
  amountRefusal(amountMinor, currency) {
    if (currency !== "TND") return "ClicToPay takes Tunisian dinars (TND) only";
    if (amountMinor < 1) return "ClicToPay needs at least 0.001 TND";
    return null;
  },
  // orderNumber must be unique per merchant at ClicToPay (up to 32 characters): a hash of the payment and attempt.
  orderNumberFor(paymentId, attempt) {
    return createHash("sha256").update(`${paymentId}:${attempt}`).digest("hex").slice(0, 20).toUpperCase();
  },
  account: findClictopayAccount,
  async register(account, order) {
    // register.do takes the amount in one phase; registerPreAuth.do holds it until deposit.do or reverse.do.
    const answer = await callClictopay(order.captureMethod === "RESERVATION" ? "registerPreAuth" : "register", {
      ...credentials(account),
      orderNumber: order.orderNumber,
      amount: String(order.amountMinor),
      currency: CLICTOPAY_CURRENCY,
      returnUrl: order.returnUrl,
      failUrl: order.returnUrl,
      description: order.reference.slice(0, 99),
      language: order.locale,
    });
    const orderId = text(answer.orderId);
    const formUrl = text(answer.formUrl);
    if (errorCodeOf(answer) !== "0" || !orderId || !formUrl) throw refusal(answer);
    return { orderId, formUrl };
  },
  async outcome({ account, orderId, locale }) {
    const answer = await callClictopay("getOrderStatusExtended", {
      ...credentials(account),
      orderId,
      language: locale,
    });
    return outcomeOf(answer);
  },
  async refund({ account, orderId, amountMinor }) {
    const answer = await callClictopay("refund", { ...credentials(account), orderId, amount: String(amountMinor) });
    if (errorCodeOf(answer) !== "0") throw refusal(answer);
    return { reference: null };
  },
  async refundedTotal({ account, orderId, locale }) {
    const answer = await callClictopay("getOrderStatusExtended", {
      ...credentials(account),
      orderId,
      language: locale,
    });
    return refundedAmountOf(answer, "ClicToPay");
  },
  reservations: {
    async capture({ account, orderId, amountMinor }) {
      const answer = await callClictopay("deposit", { ...credentials(account), orderId, amount: String(amountMinor) });
      if (errorCodeOf(answer) !== "0") throw refusal(answer);
    },
    async release({ account, orderId, locale }) {
      const answer = await callClictopay("reverse", { ...credentials(account), orderId, language: locale });
      if (errorCodeOf(answer) === "0") return "released";
      // Refused: is anything still held? A never-paid, declined or already reversed order holds nothing.
      const status = outcomeOf(
        await callClictopay("getOrderStatusExtended", { ...credentials(account), orderId, language: locale }),
      );
      if (status.kind === "authorized")
        throw new ProviderUnavailableError(
          `ClicToPay reverse.do refused (${errorCodeOf(answer)}) an order still pre-authorized`,
        );
      if (status.kind === "paid") throw refusal(answer);
      return "nothing_held";
    },
  },
  closeUnpaid: null,
  refundElsewhere: null,
  // The authorization code: getOrderStatusExtended.do's cardAuthInfo.approvalCode.
  givesAuthorizationCode: true,
  notifications: null,
  countries: clictopayDeclaration.catalog.countries,
  credentialFields: [
    { name: "userName", labelKey: "clictopayUserName", secret: false },
    { name: "password", labelKey: "clictopayPassword", secret: true },
  ],
  saveAccount: (db, { serviceId, settings }) =>
    saveClictopayAccount(db, { serviceId, account: clictopayAccountSchema.parse(settings) }),
  // getOrderStatusExtended.do of an order that cannot exist: 6 (unknown order) to a known merchant, 5 (access
  // denied) otherwise.
  async testConnection(account) {
    try {
      const answer = await callClictopay("getOrderStatusExtended", {
        ...credentials(account),
        orderId: "00000000-0000-0000-0000-000000000000",
        language: "en",
      });
      return errorCodeOf(answer) === "5" ? "wrong_credentials" : "ok";
    } catch {
      return "unavailable";
    }
  },
};

/**
 * getOrderStatusExtended.do's answer as an outcome. orderStatus: 0 registered and unpaid,
 * 1 pre-authorized (held), 2 deposited (paid), 3 reversed, 4 refunded, 5 in 3-D Secure,
 * 6 declined; paymentAmountInfo says what was approved and deposited, cardAuthInfo the card.
 */
export function outcomeOf(answer: ClictopayAnswer): RedirectOutcome {
  const status = Number(answer.orderStatus ?? answer.OrderStatus);
  const amounts = (answer.paymentAmountInfo ?? {}) as Record<string, unknown>;
  const card = (answer.cardAuthInfo ?? {}) as Record<string, unknown>;
  const approvalCode = text(card.approvalCode ?? answer.approvalCode);
  const maskedPan = text(card.maskedPan ?? answer.Pan);
  switch (status) {
    case 1:
      return {
        kind: "authorized",
        amountMinor: Number(amounts.approvedAmount ?? answer.amount),
        approvalCode,
        maskedPan,
      };
    case 2:
      return { kind: "paid", amountMinor: Number(amounts.depositedAmount ?? answer.amount), approvalCode, maskedPan };
    case 3:
    case 4:
      return { kind: "returned" };
    case 6:
      return {
        kind: "declined",
        code: text(answer.actionCode) ?? "declined",
        message: text(answer.actionCodeDescription) ?? "declined",
      };
    case 0:
    case 5:
      return { kind: "awaiting_buyer" };
    default:
      throw new ProviderUnavailableError(
        `ClicToPay getOrderStatusExtended.do answered errorCode ${errorCodeOf(answer)} without a known orderStatus`,
      );
  }
}
