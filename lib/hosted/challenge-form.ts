import { z } from "zod";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import type { Locale } from "../i18n/routing";
import { CardProviderError, sandboxCardProvider } from "../providers/card/sandbox-card-provider";
import type { FormBody } from "./read-form-body";

const answer = z.object({
  clientSecret: z.string().min(1).max(200),
  outcome: z.enum(["complete", "fail"]),
});

/** The sandbox 3DS page's address, with a notice when an answer was refused. */
export function challengePagePath(options: { locale: Locale; intentId: string; clientSecret: string; refused?: boolean }): string {
  const query = new URLSearchParams({ client_secret: options.clientSecret });
  if (options.refused) query.set("notice", "refused");
  return `/${options.locale}/card-provider-sandbox/challenge/${encodeURIComponent(options.intentId)}?${query.toString()}`;
}

export function challengeFormPath(options: { locale: Locale; intentId: string }): string {
  return `/${options.locale}/card-provider-sandbox/challenge/${encodeURIComponent(options.intentId)}/answer`;
}

/**
 * POST /{locale}/card-provider-sandbox/challenge/{intentId}/answer: the buyer's Complete or
 * Fail; answers where the buyer goes next (the gateway's card completion, or back here).
 */
export async function answerChallengeForm(input: { db: Db; locale: Locale; intentId: string; fields: FormBody }): Promise<string> {
  const parsed = answer.safeParse(input.fields);
  const back = challengePagePath({ locale: input.locale, intentId: input.intentId, clientSecret: input.fields.clientSecret ?? "", refused: true });
  if (!getConfig().isSandbox || !parsed.success) return back;
  try {
    const { returnUrl } = await sandboxCardProvider.completeChallenge(input.db, { intentId: input.intentId, ...parsed.data });
    return returnUrl;
  } catch (error) {
    if (error instanceof CardProviderError) return back;
    throw error;
  }
}
