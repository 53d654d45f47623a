import type { Locale } from "../../i18n/routing";
import { translator } from "../../i18n/translator";
import type { MailMessage } from "../../mail/mailer";

/**
 * The "Forgot password?" email, in the console's three languages as the invitation is (the link
 * opens in the browser's).
 */
export function passwordResetMail(options: { email: string; resetUrl: string }): MailMessage {
  const paragraph = (locale: Locale) =>
    translator(locale, "console")("mail.passwordReset.body", { email: options.email });
  return {
    to: options.email,
    subject: translator("en", "console")("mail.passwordReset.subject"),
    text: [paragraph("en"), options.resetUrl, "", paragraph("fr"), "", paragraph("ar")].join("\n"),
  };
}
