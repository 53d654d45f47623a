import { z } from "zod";
import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { translator } from "../../i18n/translator";
import { logger } from "../../log";
import { configuredMailer } from "../../mail/mailer";
import { getPaymentReceipt } from "../../payments/hosted/get-payment-receipt";
import { rateLimitKeys, rateLimitPolicies } from "../../rate-limit/policies";
import { consumeRateLimits } from "../../rate-limit/store";
import { receiptContent } from "./receipt-content";
import { renderReceiptPdf } from "./receipt-pdf";

export type ReceiptEmailResult = "sent" | "email_invalid" | "too_many" | "failed" | "not_found" | "unavailable";

const emailAddress = z.email().max(254);

/**
 * "Send receipt": the receipt in the page's language, as text with its PDF attached, to the
 * address the buyer typed (used once, never stored). Needs SMTP_URL and the return page's token;
 * at most five a payment every ten minutes (rate-limit policy `receipt`).
 */
export async function sendReceiptEmail(
  db: Db,
  options: { paymentId: string; token: unknown; locale: Locale; email: string },
): Promise<ReceiptEmailResult> {
  const mailer = configuredMailer();
  if (!mailer) return "unavailable";
  const receipt = await getPaymentReceipt(db, { paymentId: options.paymentId, token: options.token });
  if (!receipt) return "not_found";
  const email = emailAddress.safeParse(options.email.trim());
  if (!email.success) return "email_invalid";
  const [decision] =
    (await consumeRateLimits(
      db,
      [{ policy: rateLimitPolicies.receiptEmail, key: rateLimitKeys.receiptEmail(receipt.paymentId) }],
      Date.now(),
    )) ?? [];
  if (decision && !decision.allowed) return "too_many";

  const content = receiptContent(receipt, options.locale);
  const t = translator(options.locale, "receipt");
  const text = [
    t("mailIntro", { merchant: receipt.merchantName }),
    "",
    ...content.rows.map((row) => `${row.label}: ${row.value}`),
  ].join("\n");
  try {
    await mailer.send({
      to: email.data,
      subject: t("mailSubject", { merchant: receipt.merchantName }),
      text,
      attachments: [
        { filename: content.fileName, content: await renderReceiptPdf(content), contentType: "application/pdf" },
      ],
    });
    return "sent";
  } catch (error) {
    // The address is the buyer's: the log names the payment only.
    logger.warn({ err: error, paymentId: receipt.paymentId }, "receipt email not sent");
    return "failed";
  }
}
