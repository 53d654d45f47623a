"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/button";
import { Field } from "@/components/field";
import { StatusBanner } from "@/components/status-banner";
import type { Locale } from "@/lib/i18n/routing";
import { confirmOtp, resendOtp, type ConfirmState, type ResendState } from "./actions";

export interface OtpFormProps {
  paymentId: string;
  token: string;
  locale: Locale;
  returnUrl?: string;
  /** Seconds until a new code may be asked for, on the payment's own clock. */
  resendInSeconds: number;
  codeExpired: boolean;
}

export function OtpForm({ paymentId, token, locale, returnUrl, resendInSeconds, codeExpired }: OtpFormProps) {
  const t = useTranslations("otp");
  const tLink = useTranslations("linkInvalid");
  const [confirmState, confirm, confirming] = useActionState<ConfirmState, FormData>(confirmOtp, { kind: "idle" });
  const [resendState, resend, resending] = useActionState<ResendState, FormData>(resendOtp, {
    kind: "idle",
    resendInSeconds,
  });
  const secondsLeft = useCountdown(resendState.resendInSeconds, "at" in resendState ? resendState.at : 0);
  const codeInput = useRef<HTMLInputElement>(null);

  // After a refused code the field is empty again (React resets the form): put the buyer back in it.
  useEffect(() => {
    if (confirmState.kind !== "idle") codeInput.current?.focus();
  }, [confirmState]);
  useEffect(() => {
    if (resendState.kind === "sent") codeInput.current?.focus();
  }, [resendState]);

  const hidden = (
    <>
      <input type="hidden" name="paymentId" value={paymentId} />
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="locale" value={locale} />
      {returnUrl ? <input type="hidden" name="returnUrl" value={returnUrl} /> : null}
    </>
  );

  const codeError = (() => {
    switch (confirmState.kind) {
      case "wrong_code":
        return t("wrongCode", { attemptsLeft: confirmState.attemptsLeft });
      case "code_format":
        return t("codeFormat");
      // The code outlived its 5 minutes, unless a new one was sent since.
      case "code_expired":
        return resendState.kind === "sent" ? null : t("codeExpired");
      case "idle":
      case "link_invalid":
      case "error":
        return null;
    }
  })();
  const linkInvalid = confirmState.kind === "link_invalid" || resendState.kind === "link_invalid";
  const failed = confirmState.kind === "error" || resendState.kind === "error";

  return (
    <div className="flex flex-col gap-5">
      {linkInvalid ? (
        <StatusBanner tone="error" role="alert" title={tLink("title")}>
          {tLink("body")}
        </StatusBanner>
      ) : failed ? (
        <StatusBanner tone="error" role="alert">
          {t("error")}
        </StatusBanner>
      ) : null}
      {codeExpired && confirmState.kind === "idle" && resendState.kind === "idle" ? (
        <StatusBanner tone="warning">{t("codeExpired")}</StatusBanner>
      ) : null}

      <form action={confirm} noValidate className="flex flex-col gap-4">
        {hidden}
        <Field
          ref={codeInput}
          id="otp-code"
          name="code"
          label={t("codeLabel")}
          hint={t("codeHint")}
          error={codeError}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          enterKeyHint="done"
          maxLength={12}
          spellCheck={false}
          autoCorrect="off"
          autoCapitalize="off"
          // Digits read left to right in every language.
          dir="ltr"
          className="text-center font-mono text-2xl tracking-[0.35em]"
        />
        <Button type="submit" disabled={confirming} aria-describedby={confirming ? "otp-confirming" : undefined}>
          {confirming ? <Spinner /> : null}
          {t("confirm")}
        </Button>
        <p id="otp-confirming" role="status" className="sr-only">
          {confirming ? t("confirming") : ""}
        </p>
      </form>

      <form action={resend} className="border-t border-slate-200 pt-5">
        {hidden}
        {/* Always in the document, so screen readers hear what is put into it. */}
        <div role="status">
          {resendState.kind === "sent" ? (
            <div className="mb-3">
              <StatusBanner tone="success">{t("resent")}</StatusBanner>
            </div>
          ) : resendState.kind === "too_soon" ? (
            <div className="mb-3">
              <StatusBanner tone="warning">{t("resendTooSoon")}</StatusBanner>
            </div>
          ) : null}
        </div>
        <p className="mb-3 text-sm text-slate-700" id="otp-resend-help">
          {secondsLeft > 0 ? t("resendIn", { seconds: secondsLeft }) : t("resendAvailable")}
        </p>
        <Button type="submit" variant="secondary" disabled={secondsLeft > 0 || resending} aria-describedby="otp-resend-help">
          {resending ? <Spinner /> : null}
          {t("resend")}
        </Button>
      </form>
    </div>
  );
}

/** Counts down whole seconds from `seconds`; `restartKey` starts it again for a new cooldown. */
function useCountdown(seconds: number, restartKey: number): number {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const deadline = Date.now() + seconds * 1000;
    setLeft(seconds);
    if (seconds <= 0) return;
    const timer = setInterval(() => {
      const remaining = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setLeft(remaining);
      if (remaining === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [seconds, restartKey]);
  return left;
}

function Spinner() {
  return <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-current border-e-transparent" />;
}
