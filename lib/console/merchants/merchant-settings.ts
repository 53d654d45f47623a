import { ZodError } from "zod";
import { recordAuditEntry, type AuditActor } from "../../audit-log/record-audit-entry";
import type { Db } from "../../db/client";
import { updateMerchant } from "../../merchants/update-merchant";
import { getMerchantKeys } from "./merchant-keys";

export type SettingsResult =
  { outcome: "saved"; webhookSecret?: string } | { outcome: "invalid"; field: string; message: string };

/**
 * The Settings page (name, redirect URL, allowed origins, terms of payment URL; the time zone)
 * and the Developers page's webhook URL: the rules of `npm run merchant -- update`
 * (lib/merchants), audited in the same transaction. A first webhook URL makes the webhook
 * secret, returned this once.
 */
export async function updateMerchantSettings(
  db: Db,
  options: {
    actor: AuditActor;
    serviceId: string;
    changes: {
      name?: string;
      redirectUrl?: string | null;
      origins?: string[];
      webhookUrl?: string | null;
      timeZone?: string | null;
      termsUrl?: string | null;
    };
  },
): Promise<SettingsResult> {
  const { clientId } = await getMerchantKeys(db, options.serviceId);
  try {
    return await db.transaction(async (tx) => {
      const updated = await updateMerchant(tx, { clientId, ...options.changes });
      const webhook = options.changes.webhookUrl !== undefined;
      await recordAuditEntry(tx, {
        actor: options.actor,
        serviceId: options.serviceId,
        action: webhook ? "webhook_url_changed" : "settings_changed",
        target: webhook
          ? (updated.webhookUrl ?? "none")
          : options.changes.timeZone !== undefined
            ? `timeZone ${updated.timeZone}`
            : Object.keys(options.changes).join(", "),
      });
      return { outcome: "saved", ...(updated.webhookSecret ? { webhookSecret: updated.webhookSecret } : {}) } as const;
    });
  } catch (error) {
    if (error instanceof ZodError) {
      const issue = error.issues[0]!;
      return { outcome: "invalid", field: String(issue.path[0] ?? "name"), message: issue.message };
    }
    // Production's webhook rules (https, a public address) refuse with a plain Error.
    if (error instanceof Error && /webhook URL/.test(error.message) && options.changes.webhookUrl !== undefined) {
      return { outcome: "invalid", field: "webhookUrl", message: error.message };
    }
    throw error;
  }
}
