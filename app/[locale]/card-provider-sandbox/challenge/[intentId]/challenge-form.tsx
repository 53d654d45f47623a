"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/button";
import { StatusBanner } from "@/components/status-banner";
import { answerChallenge, type ChallengeState } from "./actions";

/** The two answers of the sandbox 3DS page, each its own POST. */
export function ChallengeForm({ intentId, clientSecret }: { intentId: string; clientSecret: string }) {
  const t = useTranslations("challenge");
  const [state, answer, answering] = useActionState<ChallengeState, FormData>(answerChallenge, { kind: "idle" });
  return (
    <div className="flex flex-col gap-3">
      {state.kind === "refused" ? (
        <div role="alert">
          <StatusBanner tone="error">{t("unavailable")}</StatusBanner>
        </div>
      ) : null}
      {(["complete", "fail"] as const).map((outcome) => (
        <form key={outcome} action={answer}>
          <input type="hidden" name="intentId" value={intentId} />
          <input type="hidden" name="clientSecret" value={clientSecret} />
          <input type="hidden" name="outcome" value={outcome} />
          <Button type="submit" variant={outcome === "complete" ? "primary" : "secondary"} disabled={answering}>
            {t(outcome)}
          </Button>
        </form>
      ))}
    </div>
  );
}
