import { getConfig } from "../../config";
import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { getWalletAppPayment } from "../../payment-methods/registry/method-entry-points";
import { FORM_TOKEN_FIELD, hostedFormToken } from "../hosted-form-route";
import type { HostedPageQuery } from "../hosted-page-query";
import { walletAppFormPath } from "../../urls/hosted-urls";
import { walletAppMode, type WalletAppMode } from "../qr-page";
import { amountDisplayFields } from "./amount-display-fields";

export type WalletAnswerTone = "success" | "info" | "error" | "warning";

// How each answer shows: the banner's tone and its title/body keys in the "wallet" messages.
const ANSWERED = {
  approved: { tone: "success", title: "approvedTitle", body: "approvedBody" },
  declined: { tone: "info", title: "declinedTitle", body: "declinedBody" },
  rejected: { tone: "error", title: "rejectedTitle", body: "rejectedBody" },
  expired: { tone: "warning", title: "expiredTitle", body: "expiredBody" },
  closed: { tone: "info", title: "closedTitle", body: "closedBody" },
} as const satisfies Record<
  Exclude<WalletAppMode, "awaiting">,
  { tone: WalletAnswerTone; title: string; body: string }
>;

type Answered = (typeof ANSWERED)[keyof typeof ANSWERED];

/** Everything the sandbox wallet app renders, decided here; the page only lays it out. */
export type WalletAppPageView =
  | { kind: "not_found" }
  | {
      kind: "render";
      mode: WalletAppMode;
      merchantName: string;
      amount: number;
      currency: string;
      /** The customer's wallet balance in the payment's currency, standard units. */
      availableBalance: number;
      approvalCode: string | null;
      /** Answered (or closed): the banner; null while the request awaits an answer. */
      answered: { tone: Answered["tone"]; title: Answered["title"]; body: Answered["body"] | "reservedBody" } | null;
      /** Awaiting: the approve/decline forms, with what they post besides the answer. */
      form: { action: string; hidden: Record<string, string>; notice: "error" | null } | null;
    };

/**
 * GET /{locale}/sandbox/wallet/{paymentId}?token=...: the sandbox wallet app the QR code links
 * to (contract 9), standing in for the customer's wallet on a phone. Sandbox only.
 */
export async function getWalletAppPageView(
  db: Db,
  options: { locale: Locale; paymentId: string; query: HostedPageQuery },
): Promise<WalletAppPageView> {
  const { locale, paymentId, query } = options;
  if (!getConfig().isSandbox || !query.token) return { kind: "not_found" };
  const payment = await getWalletAppPayment(db, { paymentId, token: query.token });
  if (!payment) return { kind: "not_found" };

  const mode = walletAppMode({ state: payment.state, expired: payment.expired, qrStatus: payment.qr.status });
  const outcome = mode === "awaiting" ? null : ANSWERED[mode];
  return {
    kind: "render",
    mode,
    ...amountDisplayFields(payment),
    availableBalance: payment.availableBalance,
    approvalCode: payment.qr.approvalCode,
    answered: outcome && {
      ...outcome,
      // An approved reservation holds the money rather than taking it, and says so.
      body: mode === "approved" && payment.captureMethod === "RESERVATION" ? "reservedBody" : outcome.body,
    },
    form: outcome
      ? null
      : {
          action: walletAppFormPath({ locale, paymentId }),
          hidden: { token: query.token, [FORM_TOKEN_FIELD]: await hostedFormToken(db, "wallet", query.token) },
          notice: query.notice === "error" ? "error" : null,
        },
  };
}
