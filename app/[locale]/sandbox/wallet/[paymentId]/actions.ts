"use server";

import { redirect } from "next/navigation";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { hostedLinkForm } from "@/lib/hosted/otp-form.schema";
import { walletAppPath } from "@/lib/hosted/qr-page";
import { ApiError } from "@/lib/http/api-error";
import { logger } from "@/lib/log";
import { answerQrPayment } from "@/lib/payments/answer-qr-payment";
import { qrOutcome } from "@/lib/payments/answer-qr-payment.schema";

// Server Actions answer only POST, and Next.js aborts one whose Origin is not this host, so
// no other site can approve or decline a payment for the customer (as on the OTP page).

const walletAnswerForm = hostedLinkForm.extend({ outcome: qrOutcome });

export type WalletAnswerState = { kind: "idle" } | { kind: "link_invalid" } | { kind: "error"; at: number };

/** POST /{locale}/sandbox/wallet/{id} (Server Action): the customer approves or declines; the page then shows the answer. */
export async function answerWalletRequest(_previous: WalletAnswerState, form: FormData): Promise<WalletAnswerState> {
  if (!getConfig().isSandbox) return { kind: "link_invalid" };
  const parsed = walletAnswerForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { kind: "link_invalid" };
  const { paymentId, token, locale, outcome } = parsed.data;
  try {
    await answerQrPayment(await getDb(), { paymentId, outcome, access: { walletToken: token } });
  } catch (error) {
    if (error instanceof ApiError && error.errorName === "invalid_credentials") return { kind: "link_invalid" };
    // Answered meanwhile (invalid_state) or out of time (intent_expired): the page shows which.
    if (!(error instanceof ApiError && (error.errorName === "invalid_state" || error.errorName === "intent_expired"))) {
      logger.error({ err: error, paymentId }, "sandbox wallet answer failed");
      return { kind: "error", at: Date.now() };
    }
  }
  redirect(walletAppPath({ locale, paymentId, token }));
}
