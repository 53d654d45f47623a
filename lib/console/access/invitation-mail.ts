import { logger } from "../../log";
import { configuredMailer, type MailMessage } from "../../mail/mailer";
import type { Locale } from "../../i18n/routing";
import { translator } from "../../i18n/translator";
import type { ConsoleRole } from "./roles";

/**
 * The invitation email. The invitee's language is unknown (the link itself opens in the
 * browser's), so the text says it in the console's three languages, each naming the role in its
 * own words (messages/console/*.json, `console.mail`).
 */
export function invitationMail(options: {
  email: string;
  merchantName: string;
  role: ConsoleRole;
  inviteUrl: string;
}): MailMessage {
  const { merchantName, role, inviteUrl } = options;
  const paragraph = (locale: Locale) => {
    const t = translator(locale, "console");
    return t("mail.invitation.body", { merchant: merchantName, role: t(`roles.${role}`) });
  };
  return {
    to: options.email,
    subject: translator("en", "console")("mail.invitation.subject", { merchant: merchantName }),
    text: [paragraph("en"), inviteUrl, "", paragraph("fr"), "", paragraph("ar")].join("\n"),
  };
}

/**
 * Emails the invitation when SMTP_URL is set, after the invitation has committed. Whether it
 * went is returned for the page; a failure is logged without the link (it holds the token), and
 * the page still shows the link to copy.
 */
export async function emailInvitation(options: Parameters<typeof invitationMail>[0]): Promise<boolean> {
  const mailer = configuredMailer();
  if (!mailer) return false;
  try {
    await mailer.send(invitationMail(options));
    return true;
  } catch (error) {
    logger.warn(
      { err: error instanceof Error ? error.message : String(error), to: options.email },
      "invitation email not sent",
    );
    return false;
  }
}
