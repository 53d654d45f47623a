import { hostedFormRoute } from "@/lib/hosted/hosted-form-route";
import { answerWalletAppForm } from "@/lib/hosted/wallet-app-form";

/** POST /{locale}/sandbox/wallet/{paymentId}/answer (form: token, outcome, formToken): 303 back to the app's page. */
export const POST = hostedFormRoute<{ locale: string; paymentId: string }>({
  form: "wallet",
  sandboxOnly: true,
  credentialField: "token",
  act: ({ db, locale, params, fields }) => answerWalletAppForm({ db, locale, paymentId: params.paymentId, fields }),
});
