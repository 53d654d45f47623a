import { getConfig } from "../config";
import type { Db } from "../db/client";
import type { Locale } from "../i18n/routing";
import { logger } from "../log";
import { attemptQrAnswer, qrOutcome } from "../payment-methods/registry/method-entry-points";
import { walletAppPath } from "../urls/hosted-urls";
import type { FormBody } from "./read-form-body";

/**
 * POST /{locale}/sandbox/wallet/{paymentId}/answer: the customer approves or declines in the
 * sandbox wallet app; the app's page then shows the answer (or why there was none).
 */
export async function answerWalletAppForm(input: {
  db: Db;
  locale: Locale;
  paymentId: string;
  fields: FormBody;
}): Promise<string> {
  const { db, locale, paymentId, fields } = input;
  const token = fields.token ?? "";
  const page = walletAppPath({ locale, paymentId, token });
  const outcome = qrOutcome.safeParse(fields.outcome);
  if (!getConfig().isSandbox || !outcome.success) return `${page}&notice=error`;
  try {
    // Answered (now or meanwhile), out of time, or a wrong token ("link not valid"): the page shows which.
    await attemptQrAnswer(db, { paymentId, outcome: outcome.data, access: { walletToken: token } });
  } catch (error) {
    logger.error({ err: error, paymentId }, "sandbox wallet answer failed");
    return `${page}&notice=error`;
  }
  return page;
}
