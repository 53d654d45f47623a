import { createHash } from "node:crypto";
import { ProviderRefusedError, ProviderUnavailableError } from "../../provider-operations";
import { satimDeclaration } from "./declaration/satim-declaration";
import type { RedirectAccount, RedirectOutcome, RedirectProvider } from "../contract/redirect-provider";
import { findSatimAccount, saveSatimAccount, satimAccountSchema } from "./satim-account";
import { callSatim, type SatimAnswer } from "./satim-epay-client";
import { refundedAmountOf } from "../redirect/refunded-amount";

/** ISO 4217 numeric code of the dinar, which SATIM takes alone. */
export const SATIM_CURRENCY = "012";
/** SATIM's toll-free number for cardholders (its "numéro vert"), which its checklist has the return page show. */
export const SATIM_SUPPORT_PHONE = "3020";
/** SATIM's smallest order: 50.00 DZD, in centimes. */
export const SATIM_MINIMUM_MINOR = 5000;

const text = (value: unknown): string | null =>
  value === undefined || value === null || value === "" ? null : String(value);
// SATIM answers register and refund in camelCase (errorCode) and confirmOrder in PascalCase (ErrorCode).
const errorCodeOf = (answer: SatimAnswer) => text(answer.errorCode ?? answer.ErrorCode) ?? "0";
const errorMessageOf = (answer: SatimAnswer) => text(answer.errorMessage ?? answer.ErrorMessage) ?? "refused";

/** Credentials every call carries. */
const credentials = (account: RedirectAccount) => ({ userName: account.userName!, password: account.password! });

/** udf1 is AN..20: the merchant's reference, cut to what SATIM accepts. */
const udf = (value: string) => value.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 20) || "order";

/** SATIM ePay (`SATIM`): the RedirectProvider the archetype (lib/payment-methods/redirect) drives. */
export const satimProvider: RedirectProvider = {
  provider: "satim",
  page: { words: { intro: "intro", logoAlt: "logoAlt" } },
  requiresActionMessage: "Please pay with your CIB or EDAHABIA card on the payment page.",
  // SATIM's merchant certification checklist (docs/going-live.md): terms and anti-bot before Pay; logo,
  // support message and 3020 after.
  checkout: { buyerChecks: true, support: { logoPath: "/payment-methods/satim.svg", phone: SATIM_SUPPORT_PHONE } },
  amountRefusal(amountMinor, currency) {
    if (currency !== "DZD") return "SATIM takes Algerian dinars (DZD) only";
    // DZD's minor unit is SATIM's centime, so every DZD amount is exact; only the minimum binds.
    if (amountMinor < SATIM_MINIMUM_MINOR) return "under SATIM's minimum of 50.00 DZD";
    return null;
  },
  // orderNumber is AN..10 and unique per merchant at SATIM: ten base-36 characters of a hash of the payment
  // and attempt.
  orderNumberFor(paymentId, attempt) {
    const digest = createHash("sha256").update(`${paymentId}:${attempt}`).digest();
    return BigInt(`0x${digest.subarray(0, 8).toString("hex")}`)
      .toString(36)
      .toUpperCase()
      .padStart(10, "0")
      .slice(-10);
  },
  account: findSatimAccount,
  async register(account, order) {
    const answer = await callSatim("register", {
      ...credentials(account),
      orderNumber: order.orderNumber,
      amount: String(order.amountMinor),
      currency: SATIM_CURRENCY,
      returnUrl: order.returnUrl,
      failUrl: order.returnUrl,
      language: order.locale,
      jsonParams: JSON.stringify({ force_terminal_id: account.terminalId, udf1: udf(order.reference) }),
    });
    const orderId = text(answer.orderId);
    const formUrl = text(answer.formUrl);
    // errorCode 1: the order number is taken (an earlier registration of ours went through unanswered).
    if (errorCodeOf(answer) === "1") throw new ProviderRefusedError("order_number_taken", errorMessageOf(answer));
    if (errorCodeOf(answer) !== "0" || !orderId || !formUrl)
      throw new ProviderRefusedError(`satim_${errorCodeOf(answer)}`, errorMessageOf(answer));
    return { orderId, formUrl };
  },
  async outcome({ account, orderId, locale }) {
    const answer = await callSatim("confirmOrder", { ...credentials(account), orderId, language: locale });
    return outcomeOf(answer);
  },
  async refund({ account, orderId, amountMinor }) {
    const answer = await callSatim("refund", {
      ...credentials(account),
      orderId,
      amount: String(amountMinor),
      currency: SATIM_CURRENCY,
    });
    if (errorCodeOf(answer) !== "0")
      throw new ProviderRefusedError(`satim_${errorCodeOf(answer)}`, errorMessageOf(answer));
    return { reference: null };
  },
  // getOrderStatusExtended.do's paymentAmountInfo.refundedAmount (confirmOrder.do says only "refunded", not how much).
  async refundedTotal({ account, orderId, locale }) {
    const answer = await callSatim("getOrderStatusExtended", { ...credentials(account), orderId, language: locale });
    return refundedAmountOf(answer, "SATIM");
  },
  reservations: null,
  closeUnpaid: null,
  refundElsewhere: null,
  // The authorization code: confirmOrder.do's approvalCode.
  givesAuthorizationCode: true,
  notifications: null,
  countries: satimDeclaration.catalog.countries,
  credentialFields: [
    { name: "terminalId", labelKey: "satimTerminalId", secret: false },
    { name: "userName", labelKey: "satimUserName", secret: false },
    { name: "password", labelKey: "satimPassword", secret: true },
  ],
  saveAccount: (db, { serviceId, settings }) =>
    saveSatimAccount(db, { serviceId, account: satimAccountSchema.parse(settings) }),
  // getOrderStatusExtended.do of an order that cannot exist: SATIM answers 6 (unknown order) to a known
  // merchant, 5 (access denied) otherwise.
  async testConnection(account) {
    try {
      const answer = await callSatim("getOrderStatusExtended", {
        ...credentials(account),
        orderId: "CONNECTIONTEST000000",
        language: "en",
      });
      return errorCodeOf(answer) === "5" ? "wrong_credentials" : "ok";
    } catch {
      return "unavailable";
    }
  },
};

/**
 * confirmOrder.do's answer as an outcome. OrderStatus: 0 registered and unpaid, 1 approved
 * (not deposited), 2 deposited (paid), 3 reversed, 4 refunded, 6 declined; actionCode and
 * params.respCode_desc say why a payment was declined.
 */
export function outcomeOf(answer: SatimAnswer): RedirectOutcome {
  const status = Number(answer.OrderStatus ?? answer.orderStatus);
  switch (status) {
    case 2:
      return {
        kind: "paid",
        amountMinor: Number(answer.depositAmount ?? answer.Amount),
        approvalCode: text(answer.approvalCode),
        maskedPan: text(answer.Pan),
      };
    case 3:
    case 4:
      return { kind: "returned" };
    case 6:
    case -1: {
      const params = (answer.params ?? {}) as Record<string, unknown>;
      return {
        kind: "declined",
        code: text(answer.actionCode) ?? "declined",
        message: text(params.respCode_desc) ?? text(answer.actionCodeDescription) ?? "declined",
      };
    }
    case 0:
    case 1:
      return { kind: "awaiting_buyer" };
    default:
      throw new ProviderUnavailableError(
        `SATIM confirmOrder.do answered ErrorCode ${errorCodeOf(answer)} without a known OrderStatus`,
      );
  }
}
