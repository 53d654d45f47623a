"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/button";
import { StatusBanner } from "@/components/status-banner";
import type { Locale } from "@/lib/i18n/routing";
import { answerWalletRequest, type WalletAnswerState } from "./actions";

/** The wallet app's two answers, each its own POST. */
export function WalletAnswerForm({ paymentId, token, locale }: { paymentId: string; token: string; locale: Locale }) {
  const t = useTranslations("wallet");
  const tLink = useTranslations("linkInvalid");
  const [state, answer, answering] = useActionState<WalletAnswerState, FormData>(answerWalletRequest, { kind: "idle" });
  return (
    <div className="flex flex-col gap-3">
      {/* Always in the document, so screen readers hear what is put into it. */}
      <div role="alert">
        {state.kind === "link_invalid" ? (
          <StatusBanner tone="error" title={tLink("title")}>
            {tLink("body")}
          </StatusBanner>
        ) : state.kind === "error" ? (
          <StatusBanner tone="error">{t("error")}</StatusBanner>
        ) : null}
      </div>
      {(["approve", "decline"] as const).map((outcome) => (
        <form key={outcome} action={answer}>
          <input type="hidden" name="paymentId" value={paymentId} />
          <input type="hidden" name="token" value={token} />
          <input type="hidden" name="locale" value={locale} />
          <input type="hidden" name="outcome" value={outcome} />
          <Button type="submit" variant={outcome === "approve" ? "primary" : "secondary"} disabled={answering}>
            {t(outcome)}
          </Button>
        </form>
      ))}
      <p role="status" className="sr-only">
        {answering ? t("answering") : ""}
      </p>
    </div>
  );
}
