import { answerChallengeForm } from "@/lib/hosted/challenge-form";
import { hostedFormRoute } from "@/lib/hosted/hosted-form-route";

/** POST /{locale}/card-provider-sandbox/challenge/{intentId}/answer (form: clientSecret, outcome, formToken). */
export const POST = hostedFormRoute<{ locale: string; intentId: string }>({
  form: "challenge",
  sandboxOnly: true,
  credentialField: "clientSecret",
  act: ({ db, locale, params, fields }) => answerChallengeForm({ db, locale, intentId: params.intentId, fields }),
});
