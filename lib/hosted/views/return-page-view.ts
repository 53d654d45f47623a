import { getConfig } from "../../config";
import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { FAILURE_REASON } from "../../payments/core/payment-messages";
import type { HostedPaymentView } from "../../payments/hosted/get-hosted-payment";
import { leavesForMerchant, returnOutcome, type ReturnOutcome } from "../hosted-outcome";
import type { HostedPageQuery } from "../hosted-page-query";
import {
  cardPagePath,
  otpPagePath,
  qrPagePath,
  redirectPagePath,
  type HostedLinkOptions,
} from "../../urls/hosted-urls";
import { returnPageReceipt, type ReturnPageReceipt } from "../receipts/return-page-receipt";
import { loadHostedPayment } from "../load-hosted-payment";
import { explainReturnTarget, logIgnoredReturnUrl, type IgnoredReturnUrl } from "../resolve-return-target";
import { amountDisplayFields } from "./amount-display-fields";
import type { HostedStepPage } from "../../payment-methods/contract/payment-method-module";
import { paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";

// Card failures whose reason the page names, as check's endUserMessage does.
type CardFailure = "card_declined" | "card_insufficient_funds" | "card_authentication_failed";
const CARD_FAILURES = new Set<string>([
  FAILURE_REASON.cardDeclined,
  FAILURE_REASON.cardInsufficientFunds,
  FAILURE_REASON.cardAuthenticationFailed,
] satisfies CardFailure[]);

// Outcomes whose wording speaks of a wallet; a card payment has its own sentence for them.
type CardWorded = "authorized" | "pending" | "canceled" | "refunded";
const CARD_WORDING = new Set<string>(["authorized", "pending", "canceled", "refunded"] satisfies CardWorded[]);

/** The sentence under the outcome: a key of the "return" messages, or the OTP page's "expired" one. */
export type ReturnBody =
  | { namespace: "otp"; key: "expiredBody" }
  | {
      namespace: "return";
      key:
        | `${ReturnOutcome}Body`
        | `failedBodyCard_${CardFailure}`
        | "pendingBodyQr"
        | `${CardWorded}BodyCard`
        | "pendingBodyRedirect"
        | "failedBodyRedirect"
        | "refundedBodyRedirect";
    };

/** What the page offers next: back to the payment page, on to the merchant, or nothing. */
export type ReturnNext =
  | {
      kind: "retry";
      href: string;
      label: "pendingActionQr" | "pendingActionCard" | "pendingActionRedirect" | "pendingAction";
    }
  | {
      kind: "leave";
      target: string;
      /** The buyer asked to stay (stay=1): no automatic move. */
      staying: boolean;
      /** False for a REDIRECT method (contract 15): the page never moves on by itself, it offers the link only. */
      movesOn: boolean;
      /** The page's own query (token, returnUrl), kept by the stay form. */
      stayQuery: Record<string, string>;
    }
  | { kind: "no_target" };

/** Everything the return page renders, decided here; the page only lays it out. */
export type ReturnPageView =
  | { kind: "not_found" }
  | {
      kind: "render";
      outcome: ReturnOutcome;
      merchantName: string;
      amount: number;
      currency: string;
      body: ReturnBody;
      next: ReturnNext;
      /** Sandbox only: why the merchant's returnUrl/redirectUrl was not followed. */
      ignoredReturnUrl: IgnoredReturnUrl | null;
      /** The receipt and its actions (print, PDF, email), once the payment has an outcome. */
      receipt: ReturnPageReceipt | null;
      /**
       * The provider's logo, support message and toll-free number its certification asks for
       * (SATIM: 3020), whatever the outcome.
       */
      providerSupport: { logoPath: string; phone: string } | null;
    };

/**
 * The hosted page of the payment's method (its module's hostedStep); the OTP page for a payment no
 * method has proceeded, as before.
 */
const stepPageOf = (payment: HostedPaymentView): HostedStepPage =>
  paymentMethodOf(payment.paymentMethodCode)?.hostedStep ?? "otp";

/** Back to the method's own page while the payment still waits for the buyer. */
function retryOnStepPage(step: HostedStepPage, link: HostedLinkOptions): ReturnNext {
  switch (step) {
    case "card":
      return { kind: "retry", href: cardPagePath(link), label: "pendingActionCard" };
    case "otp":
      return { kind: "retry", href: otpPagePath(link), label: "pendingAction" };
    case "redirect":
      return { kind: "retry", href: redirectPagePath(link), label: "pendingActionRedirect" };
  }
}

function returnBody(outcome: ReturnOutcome, payment: HostedPaymentView): ReturnBody {
  // The card page's own wording (its failures, a card's authorization) belongs to the methods paid on it.
  const card = stepPageOf(payment) === "card";
  // A payment that ran out of time says so: the buyer did nothing wrong.
  if (outcome === "failed" && payment.expired) return { namespace: "otp", key: "expiredBody" };
  if (outcome === "failed" && card && CARD_FAILURES.has(payment.failureReason ?? "")) {
    return { namespace: "return", key: `failedBodyCard_${payment.failureReason as CardFailure}` };
  }
  if (payment.transactionType === "QR_CODE" && outcome === "pending")
    return { namespace: "return", key: "pendingBodyQr" };
  if (stepPageOf(payment) === "redirect" && (outcome === "pending" || outcome === "failed" || outcome === "refunded"))
    return { namespace: "return", key: `${outcome}BodyRedirect` };
  if (card && CARD_WORDING.has(outcome)) return { namespace: "return", key: `${outcome as CardWorded}BodyCard` };
  return { namespace: "return", key: `${outcome}Body` };
}

/**
 * GET /{locale}/pay/return/{paymentId}: the outcome, then on to the merchant (contract 8) with
 * paymentId and statusCode, or back to the payment page while it is still pending.
 */
export async function getReturnPageView(
  db: Db,
  options: { locale: Locale; paymentId: string; query: HostedPageQuery },
): Promise<ReturnPageView> {
  const { locale, paymentId, query } = options;
  const loaded = await loadHostedPayment(db, { paymentId, token: query.token });
  if (!loaded) return { kind: "not_found" };
  const { payment } = loaded;
  const link = { locale, paymentId, token: query.token!, returnUrl: query.returnUrl };

  const outcome = returnOutcome(payment.state);
  const { target, ignored } = leavesForMerchant(outcome)
    ? explainReturnTarget({
        paymentId,
        statusCode: payment.statusCode,
        returnUrl: query.returnUrl,
        redirectUrl: payment.redirectUrl,
        serviceRedirectUrl: payment.serviceRedirectUrl,
        allowedOrigins: payment.allowedOrigins,
      })
    : { target: null, ignored: null };
  if (ignored) logIgnoredReturnUrl(paymentId, ignored);

  let next: ReturnNext;
  if (outcome === "pending") {
    next =
      payment.transactionType === "QR_CODE"
        ? { kind: "retry", href: qrPagePath(link), label: "pendingActionQr" }
        : retryOnStepPage(stepPageOf(payment), link);
  } else if (target) {
    const stayQuery = Object.fromEntries(
      Object.entries({ token: query.token, returnUrl: query.returnUrl }).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    next = { kind: "leave", target, staying: query.stay, stayQuery, movesOn: stepPageOf(payment) !== "redirect" };
  } else {
    next = { kind: "no_target" };
  }

  return {
    kind: "render",
    outcome,
    ...amountDisplayFields(payment),
    body: returnBody(outcome, payment),
    next,
    ignoredReturnUrl: ignored && getConfig().isSandbox ? ignored : null,
    receipt: outcome === "pending" ? null : await returnPageReceipt(db, { link, notice: query.notice }),
    providerSupport: paymentMethodOf(payment.paymentMethodCode)?.redirect?.checkout?.support ?? null,
  };
}
