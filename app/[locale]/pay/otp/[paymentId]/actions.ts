"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { otpPageMode, resendCountdown } from "@/lib/hosted/hosted-outcome";
import { otpPagePath, returnPagePath } from "@/lib/hosted/hosted-paths";
import { loadHostedPayment } from "@/lib/hosted/load-hosted-payment";
import { hostedLinkForm, otpCode, type HostedLinkForm } from "@/lib/hosted/otp-form.schema";
import { ApiError } from "@/lib/http/api-error";
import { logger } from "@/lib/log";
import { resendPaymentOtp } from "@/lib/payments/hosted/resend-payment-otp";
import { submitPaymentOtp } from "@/lib/payments/hosted/submit-payment-otp";

// Server Actions answer only POST, and Next.js aborts one whose Origin is not this host
// (e2e/security.spec.ts proves it): a page elsewhere cannot submit or resend for the buyer.
// The code itself is never logged, returned or rendered back.

export type ConfirmState =
  | { kind: "idle" }
  | { kind: "wrong_code"; attemptsLeft: number; at: number }
  | { kind: "code_format"; at: number }
  | { kind: "code_expired"; at: number }
  | { kind: "link_invalid" }
  | { kind: "error"; at: number };

export type ResendState =
  | { kind: "idle"; resendInSeconds: number }
  | { kind: "sent"; resendInSeconds: number; at: number }
  | { kind: "too_soon"; resendInSeconds: number; at: number }
  | { kind: "link_invalid"; resendInSeconds: 0 }
  | { kind: "error"; resendInSeconds: 0; at: number };

/** POST /{locale}/pay/otp/{id} (Server Action): check the code; a settled payment moves to the return page. */
export async function confirmOtp(_previous: ConfirmState, form: FormData): Promise<ConfirmState> {
  const link = hostedLinkForm.safeParse(Object.fromEntries(form));
  if (!link.success) return { kind: "link_invalid" };
  const code = otpCode.safeParse(form.get("code") ?? "");
  if (!code.success) return { kind: "code_format", at: Date.now() };

  const db = await getDb();
  const { paymentId, token } = link.data;
  try {
    const result = await submitPaymentOtp(db, { paymentId, token, code: code.data });
    if (result.state === "REQUIRES_ACTION") return { kind: "wrong_code", attemptsLeft: result.attemptsLeft, at: Date.now() };
  } catch (error) {
    if (isApiError(error, "invalid_credentials")) return { kind: "link_invalid" };
    if (!isApiError(error, "invalid_state")) {
      logger.error({ err: error, paymentId }, "hosted OTP submission failed");
      return { kind: "error", at: Date.now() };
    }
    // Refused because of the state: either the code outlived its 5 minutes (the buyer asks
    // for a new one here) or the payment settled meanwhile (the return page tells how).
    if (await stillAwaitsCode(db, link.data)) return { kind: "code_expired", at: Date.now() };
  }
  redirect(returnPagePath(link.data));
}

/** POST /{locale}/pay/otp/{id} (Server Action): send a new code once the cooldown is over. */
export async function resendOtp(_previous: ResendState, form: FormData): Promise<ResendState> {
  const link = hostedLinkForm.safeParse(Object.fromEntries(form));
  if (!link.success) return { kind: "link_invalid", resendInSeconds: 0 };

  const db = await getDb();
  const { paymentId, token } = link.data;
  let sent = true;
  try {
    await resendPaymentOtp(db, { paymentId, token });
  } catch (error) {
    if (isApiError(error, "invalid_credentials")) return { kind: "link_invalid", resendInSeconds: 0 };
    // Inside the cooldown (invalid_state) or past the intent's lifetime (intent_expired):
    // what the buyer faces now is read back below.
    if (!isApiError(error, "invalid_state") && !isApiError(error, "intent_expired")) {
      logger.error({ err: error, paymentId }, "hosted OTP resend failed");
      return { kind: "error", resendInSeconds: 0, at: Date.now() };
    }
    sent = false;
  }
  const loaded = await loadHostedPayment(db, { paymentId, token });
  if (!loaded) return { kind: "link_invalid", resendInSeconds: 0 };
  const seconds = resendCountdown(loaded.payment, loaded.now);
  // Expired or settled meanwhile: the OTP page shows which.
  if (seconds === null) redirect(otpPagePath(link.data));
  return { kind: sent ? "sent" : "too_soon", resendInSeconds: seconds, at: Date.now() };
}

async function stillAwaitsCode(db: Awaited<ReturnType<typeof getDb>>, link: HostedLinkForm): Promise<boolean> {
  const loaded = await loadHostedPayment(db, link);
  if (!loaded) return false;
  const { payment } = loaded;
  return otpPageMode({ state: payment.state, expired: payment.expired, hasOtp: payment.otp !== null }) === "enter_code";
}

function isApiError(error: unknown, name: ApiError["errorName"]): error is ApiError {
  return error instanceof ApiError && error.errorName === name;
}
