import { recordAuditEntry } from "../../../audit-log/record-audit-entry";
import { consolePath } from "../../access/console-paths";
import { rollClientSecret, rollWebhookSecret } from "../../merchants/merchant-keys";
import { updateMerchantSettings } from "../../merchants/merchant-settings";
import { ApiError } from "../../../errors/api-error";
import { redeliverEvent } from "../../../events/redeliver-event";
import type { ConsoleAction } from "../console-form-route";
import { actorOf, serviceOf } from "./actor";

/** The Developers page: owners and developers (contract 13). */
export const developerActions: Record<string, ConsoleAction> = {
  "roll-client-secret": {
    access: "member",
    capability: "keys.manage",
    async act({ db, locale, ip, principal }) {
      const value = await rollClientSecret(db, { actor: actorOf(principal, ip), serviceId: serviceOf(principal) });
      return {
        location: consolePath.developers(locale),
        flash: { kind: "new_secret", secret: "client_secret", value },
      };
    },
  },
  "roll-webhook-secret": {
    access: "member",
    capability: "keys.manage",
    async act({ db, locale, ip, principal }) {
      const value = await rollWebhookSecret(db, { actor: actorOf(principal, ip), serviceId: serviceOf(principal) });
      return {
        location: consolePath.developers(locale),
        flash: { kind: "new_secret", secret: "webhook_secret", value },
      };
    },
  },
  "webhook-url": {
    access: "member",
    capability: "integration.manage",
    async act({ db, locale, fields, ip, principal }) {
      const typed = (fields.webhookUrl ?? "").trim();
      const result = await updateMerchantSettings(db, {
        actor: actorOf(principal, ip),
        serviceId: serviceOf(principal),
        changes: { webhookUrl: typed || null },
      });
      const location = consolePath.developers(locale);
      if (result.outcome === "invalid")
        return {
          location,
          flash: {
            kind: "error",
            form: "webhook",
            field: "webhookUrl",
            key: "invalidUrl",
            detail: result.message,
            values: { webhookUrl: typed },
          },
        };
      if (result.webhookSecret)
        return { location, flash: { kind: "new_secret", secret: "webhook_secret", value: result.webhookSecret } };
      return { location, flash: { kind: "notice", key: "webhookUrlSaved" } };
    },
  },
  redeliver: {
    access: "member",
    capability: "integration.manage",
    async act({ db, locale, fields, ip, principal }) {
      const serviceId = serviceOf(principal);
      const id = fields.event ?? "";
      const location = consolePath.event(locale, id);
      try {
        await db.transaction(async (tx) => {
          await redeliverEvent(tx, { serviceId, id });
          await recordAuditEntry(tx, {
            actor: actorOf(principal, ip),
            serviceId,
            action: "event_redelivered",
            target: id,
          });
        });
      } catch (error) {
        if (error instanceof ApiError && error.errorName === "invalid_state")
          return {
            location,
            flash: { kind: "error", form: "redeliver", key: "redeliverRefused", detail: error.message },
          };
        throw error;
      }
      return { location, flash: { kind: "notice", key: "redeliveryQueued" } };
    },
  },
};
