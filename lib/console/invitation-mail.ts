import { logger } from "../log";
import { configuredMailer, type MailMessage } from "../mail/mailer";
import type { ConsoleRole } from "./roles";

/**
 * The invitation email. The invitee's language is unknown (the link itself opens in the
 * browser's), so the text says it in the console's three languages.
 */
export function invitationMail(options: { email: string; merchantName: string; role: ConsoleRole; inviteUrl: string }): MailMessage {
  const { merchantName, role, inviteUrl } = options;
  return {
    to: options.email,
    subject: `Invitation to ${merchantName}'s console`,
    text: [
      `You are invited to join ${merchantName}'s payments console as ${role}.`,
      `Open this link within 72 hours; it works once:`,
      inviteUrl,
      "",
      `Vous êtes invité(e) à rejoindre la console de paiement de ${merchantName}. Ce lien fonctionne une seule fois, pendant 72 heures.`,
      "",
      `أنت مدعو للانضمام إلى لوحة مدفوعات ${merchantName}. يعمل هذا الرابط مرة واحدة خلال 72 ساعة.`,
    ].join("\n"),
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
    logger.warn({ err: error instanceof Error ? error.message : String(error), to: options.email }, "invitation email not sent");
    return false;
  }
}
