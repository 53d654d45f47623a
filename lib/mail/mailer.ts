import nodemailer from "nodemailer";
import { getConfig } from "../config";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/** The port every email goes through; null where no SMTP server is configured (the page shows what would be sent). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

const globalForMail = globalThis as unknown as { gatewayMailer?: { url: string; mailer: Mailer } };

/** The SMTP adapter (nodemailer) for SMTP_URL, built once per URL; null without SMTP_URL. */
export function configuredMailer(): Mailer | null {
  const config = getConfig();
  if (!config.SMTP_URL) return null;
  if (globalForMail.gatewayMailer?.url !== config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    const from = config.SMTP_FROM ?? `no-reply@${new URL(config.publicBaseUrl).hostname}`;
    globalForMail.gatewayMailer = {
      url: config.SMTP_URL,
      mailer: {
        async send(message) {
          await transport.sendMail({
            from,
            to: message.to,
            subject: message.subject,
            text: message.text,
            attachments: message.attachments,
          });
        },
      },
    };
  }
  return globalForMail.gatewayMailer.mailer;
}
