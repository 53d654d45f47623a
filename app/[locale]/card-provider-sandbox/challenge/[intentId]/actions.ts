"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { CardProviderError, sandboxCardProvider } from "@/lib/providers/card/sandbox-card-provider";

// The sandbox provider's 3DS answer. Server Actions answer only POST and Next.js refuses one
// whose Origin is not this host, so no other site can answer the challenge for the buyer.
const answer = z.object({
  intentId: z.string().regex(/^pi_[A-Za-z0-9]{24}$/),
  clientSecret: z.string().min(1).max(200),
  outcome: z.enum(["complete", "fail"]),
});

export type ChallengeState = { kind: "idle" } | { kind: "refused" };

/** POST /{locale}/card-provider-sandbox/challenge/{intentId} (Server Action): Complete or Fail. */
export async function answerChallenge(_previous: ChallengeState, form: FormData): Promise<ChallengeState> {
  if (!getConfig().isSandbox) return { kind: "refused" };
  const parsed = answer.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { kind: "refused" };
  let returnUrl: string;
  try {
    ({ returnUrl } = await sandboxCardProvider.completeChallenge(await getDb(), parsed.data));
  } catch (error) {
    if (error instanceof CardProviderError) return { kind: "refused" };
    throw error;
  }
  redirect(returnUrl);
}
