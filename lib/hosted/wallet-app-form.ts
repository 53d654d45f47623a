import { getConfig } from "../config";
import type { Db } from "../db/client";
import { ApiError } from "../errors/api-error";
import type { Locale } from "../i18n/routing";
import { logger } from "../log";
import { answerQrPayment } from "../payments/operations/answer-qr-payment";
import { qrOutcome } from "../payments/operations/answer-qr-payment.schema";
import { walletAppPath } from "../urls/hosted-urls";
import type { FormBody } from "./read-form-body";

/**
 * POST /{locale}/sandbox/wallet/{paymentId}/answer: the customer approves or declines in the
 * sandbox wallet app; the app's page then shows the answer (or why there was none).
 */
export async function answerWalletAppForm(input: { db: Db; locale: Locale; paymentId: string; fields: FormBody }): Promise<string> {
  const { db, locale, paymentId, fields } = input;
  const token = fields.token ?? "";
  const page = walletAppPath({ locale, paymentId, token });
  const outcome = qrOutcome.safeParse(fields.outcome);
  if (!getConfig().isSandbox || !outcome.success) return `${page}&notice=error`;
  try {
    await answerQrPayment(db, { paymentId, outcome: outcome.data, access: { walletToken: token } });
  } catch (error) {
    // Answered meanwhile (invalid_state) or out of time (intent_expired): the page shows which;
    // a wrong token (invalid_credentials) shows the neutral "link not valid".
    if (!(error instanceof ApiError && ["invalid_state", "intent_expired", "invalid_credentials"].includes(error.errorName))) {
      logger.error({ err: error, paymentId }, "sandbox wallet answer failed");
      return `${page}&notice=error`;
    }
  }
  return page;
}
