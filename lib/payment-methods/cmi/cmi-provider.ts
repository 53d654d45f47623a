import { createHash, randomBytes } from "node:crypto";
import { getConfig } from "../../config";
import { ProviderRefusedError, ProviderUnavailableError } from "../../provider-operations";
import { cmiDeclaration } from "./declaration/cmi-declaration";
import type { RedirectAccount, RedirectOutcome, RedirectProvider } from "../contract/redirect-provider";
import { cmiAccountSchema, findCmiAccount, saveCmiAccount } from "./cmi-account";
import { callCmi, cmiAmount, cmiGateUrl, CMI_CURRENCY, type CmiAnswer } from "./cmi-api-client";
import { receiveCmiCallback } from "./cmi-callback";
import { cmiHash } from "./cmi-hash";

/** Where CMI posts its server-to-server callback (app/api/redirect-callbacks/[method]). */
export const CMI_CALLBACK_PATH = "/api/redirect-callbacks/cmi";

/**
 * The order's kind rides on its number (CMI keeps no other field of ours for the status call):
 * "D" a DIRECT payment, which the gateway captures at once; "R" a RESERVATION, held until
 * the merchant captures or releases it.
 */
const isDirectOrder = (orderId: string) => orderId.endsWith("D");

const text = (value: string | undefined): string | null => (value === undefined || value === "" ? null : value);
const approved = (answer: CmiAnswer) => answer.fields.Response === "Approved" && answer.fields.ProcReturnCode === "00";
const refusal = (call: string, answer: CmiAnswer) =>
  new ProviderRefusedError(
    `cmi_${answer.fields.ProcReturnCode || answer.fields.Response || "error"}`,
    `CMI ${call}: ${answer.fields.ErrMsg || answer.fields.Response || "refused"}`,
  );

async function orderStatus(account: RedirectAccount, orderId: string) {
  return callCmi(account, { OrderId: orderId }, { ORDERSTATUS: "QUERY" });
}

/**
 * CMI (`CMI`): the RedirectProvider the archetype (lib/payment-methods/redirect) drives. There
 * is nothing to register at CMI before the buyer pays: "register" only names the order (oid)
 * and the buyer's browser posts the form `browserForm` signs, with the store key that never
 * leaves the server. Every 3D Pay Hosting order is a pre-authorization (TranType=PreAuth, as
 * CMI documents it); a DIRECT payment is captured at once with PostAuth (the callback's
 * "ACTION=POSTAUTH", or the gateway's own PostAuth when it learns of the hold first), a
 * RESERVATION keeps the hold until the merchant captures (PostAuth, all or part) or releases
 * (Void) it. Refunds are Credit. Amounts are decimal dirhams at CMI, centimes here.
 */
export const cmiProvider: RedirectProvider = {
  provider: "cmi",
  // CMI's gate under CMI_URL, where the page's form posts.
  page: { words: { intro: "introCmi", logoAlt: "logoAltCmi" } },
  requiresActionMessage: "Please pay with your card on the CMI payment page.",
  amountRefusal(amountMinor, currency) {
    if (currency !== "MAD") return "CMI takes Moroccan dirhams (MAD) only";
    if (amountMinor < 100) return "CMI needs at least 1.00 MAD";
    return null;
  },
  // oid is up to 64 characters at CMI and unique per store: a hash of the payment and attempt (the kind is
  // added at registration).
  orderNumberFor(paymentId, attempt) {
    return createHash("sha256").update(`${paymentId}:${attempt}`).digest("hex").slice(0, 20).toUpperCase();
  },
  account: findCmiAccount,
  async register(_account, order) {
    return {
      orderId: `${order.orderNumber}${order.captureMethod === "RESERVATION" ? "R" : "D"}`,
      formUrl: cmiGateUrl(),
    };
  },
  browserForm(account, order) {
    const fields: Record<string, string> = {
      clientid: account.clientId!,
      storetype: "3D_PAY_HOSTING",
      TranType: "PreAuth",
      amount: cmiAmount(order.amountMinor),
      currency: CMI_CURRENCY,
      oid: order.orderId,
      okUrl: order.returnUrl,
      failUrl: order.returnUrl,
      callbackUrl: `${getConfig().publicBaseUrl}${CMI_CALLBACK_PATH}`,
      shopurl: order.returnUrl,
      lang: order.locale,
      rnd: randomBytes(12).toString("hex"),
      hashAlgorithm: "ver3",
      encoding: "UTF-8",
      refreshtime: "5",
      description: order.reference.slice(0, 100),
    };
    return { action: cmiGateUrl(), fields: { ...fields, HASH: cmiHash(fields, account.storeKey!) } };
  },
  async outcome({ account, orderId }) {
    const status = await orderStatus(account, orderId);
    const outcome = outcomeOf(status);
    // A DIRECT order CMI only holds (its callback's POSTAUTH not sent, or not applied yet): the gateway
    // captures it now, all of it.
    if (outcome.kind === "authorized" && isDirectOrder(orderId)) {
      const captured = await callCmi(account, {
        Type: "PostAuth",
        OrderId: orderId,
        Total: cmiAmount(outcome.amountMinor),
        Currency: CMI_CURRENCY,
      });
      if (!approved(captured)) {
        const again = outcomeOf(await orderStatus(account, orderId));
        if (again.kind === "authorized")
          throw new ProviderUnavailableError(
            `CMI PostAuth of a DIRECT order refused (${captured.fields.ProcReturnCode})`,
          );
        return again;
      }
      return { ...outcome, kind: "paid" };
    }
    return outcome;
  },
  async refund({ account, orderId, amountMinor }) {
    const answer = await callCmi(account, {
      Type: "Credit",
      OrderId: orderId,
      Total: cmiAmount(amountMinor),
      Currency: CMI_CURRENCY,
    });
    if (!approved(answer)) throw refusal("Credit", answer);
    return { reference: text(answer.fields.TransId) };
  },
  // The order status query's Extra/REFUND_AMT, in centimes as CAPTURE_AMT; no record: nothing paid, nothing refunded.
  async refundedTotal({ account, orderId }) {
    const { fields, extra } = await orderStatus(account, orderId);
    if (fields.ProcReturnCode !== "00") {
      if (/no record|not found/i.test(fields.ErrMsg ?? "")) return 0;
      throw new ProviderUnavailableError(`CMI order status answered ${fields.ProcReturnCode || fields.Response}`);
    }
    const refunded = Number(extra.REFUND_AMT || 0);
    if (!Number.isSafeInteger(refunded) || refunded < 0)
      throw new ProviderUnavailableError(`CMI order status answered REFUND_AMT ${extra.REFUND_AMT}`);
    return refunded;
  },
  reservations: {
    async capture({ account, orderId, amountMinor }) {
      const answer = await callCmi(account, {
        Type: "PostAuth",
        OrderId: orderId,
        Total: cmiAmount(amountMinor),
        Currency: CMI_CURRENCY,
      });
      if (!approved(answer)) throw refusal("PostAuth", answer);
    },
    async release({ account, orderId }) {
      const answer = await callCmi(account, { Type: "Void", OrderId: orderId });
      if (approved(answer)) return "released";
      // Refused: is anything still held? A never-paid, declined or already voided order holds nothing.
      const status = outcomeOf(await orderStatus(account, orderId));
      if (status.kind === "authorized")
        throw new ProviderUnavailableError(
          `CMI Void refused (${answer.fields.ProcReturnCode}) an order still pre-authorized`,
        );
      if (status.kind === "paid") throw refusal("Void", answer);
      return "nothing_held";
    },
  },
  refundElsewhere: null,
  // The authorization code: the order status query's Extra/AUTH_CODE (the callback's AuthCode).
  givesAuthorizationCode: true,
  receiveCallback: (db, request) => receiveCmiCallback(db, request, cmiProvider),
  countries: cmiDeclaration.catalog.countries,
  // Unpaid orders lapse at CMI (a reservation's open hold is voided through reservations.release).
  closeUnpaid: null,
  // CMI's callback has its own route (receiveCallback), answered as CMI expects.
  notifications: null,
  credentialFields: [
    { name: "clientId", labelKey: "cmiClientId", secret: false },
    { name: "storeKey", labelKey: "cmiStoreKey", secret: true },
    { name: "apiUser", labelKey: "cmiApiUser", secret: false },
    { name: "apiPassword", labelKey: "cmiApiPassword", secret: true },
  ],
  saveAccount: (db, { serviceId, settings }) =>
    saveCmiAccount(db, { serviceId, account: cmiAccountSchema.parse(settings) }),
  // The order status of an order that cannot exist: "no record" to a known API user, an authentication error otherwise.
  async testConnection(account) {
    try {
      const answer = await orderStatus(account, "CONNECTIONTEST0000000");
      return /auth|denied|password|user/i.test(answer.fields.ErrMsg ?? "") ? "wrong_credentials" : "ok";
    } catch {
      return "unavailable";
    }
  },
};

/**
 * The order status query's answer as an outcome. Extra/TRANS_STAT: A pre-authorized (held),
 * C captured, V voided, D declined; ORIG_TRANS_AMT and CAPTURE_AMT in centimes (as the EST
 * platform answers them), AUTH_CODE and PAN the card's. No record: the buyer has not paid yet.
 */
export function outcomeOf(answer: CmiAnswer): RedirectOutcome {
  const { fields, extra } = answer;
  if (fields.ProcReturnCode !== "00") {
    if (/no record|not found/i.test(fields.ErrMsg ?? "")) return { kind: "awaiting_buyer" };
    throw new ProviderUnavailableError(`CMI order status answered ${fields.ProcReturnCode || fields.Response}`);
  }
  const approvalCode = text(extra.AUTH_CODE);
  const maskedPan = text(extra.PAN);
  switch (extra.TRANS_STAT) {
    case "A":
      return { kind: "authorized", amountMinor: Number(extra.ORIG_TRANS_AMT), approvalCode, maskedPan };
    case "C": {
      // Captured, and since given back in full (Credit): nothing is left to take or return.
      const captured = Number(extra.CAPTURE_AMT);
      if (captured > 0 && Number(extra.REFUND_AMT || 0) >= captured) return { kind: "returned" };
      return { kind: "paid", amountMinor: captured, approvalCode, maskedPan };
    }
    case "V":
      return { kind: "returned" };
    case "D":
      return { kind: "declined", code: extra.PROC_RET_CD || "declined", message: extra.ERR_MSG || "declined" };
    default:
      return { kind: "awaiting_buyer" };
  }
}
