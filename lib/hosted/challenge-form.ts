import { z } from "zod";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import type { Locale } from "../i18n/routing";
import { simulatorMount } from "../providers/simulator-mount";
import type { FormBody } from "./read-form-body";
import { challengePagePath } from "../urls/hosted-urls";

const answer = z.object({
  clientSecret: z.string().min(1).max(200),
  outcome: z.enum(["complete", "fail"]),
});

/**
 * POST /{locale}/card-provider-sandbox/challenge/{intentId}/answer: the buyer's Complete or
 * Fail; answers where the buyer goes next (the gateway's card completion, or back here).
 */
export async function answerChallengeForm(input: {
  db: Db;
  locale: Locale;
  intentId: string;
  fields: FormBody;
}): Promise<string> {
  const parsed = answer.safeParse(input.fields);
  const back = challengePagePath({
    locale: input.locale,
    intentId: input.intentId,
    clientSecret: input.fields.clientSecret ?? "",
    refused: true,
  });
  if (!getConfig().isSandbox || !parsed.success) return back;
  const completed = await simulatorMount().card.completeChallenge(input.db, {
    intentId: input.intentId,
    ...parsed.data,
  });
  return completed?.returnUrl ?? back;
}
