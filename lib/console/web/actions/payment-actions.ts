import { recordAuditEntry, type AuditEntry } from "../../../audit-log/record-audit-entry";
import { consoleServiceContext, type ConsolePrincipal } from "../../access/console-principal";
import type { ServiceContext } from "../../../auth/principal";
import { deactivateCustomer, deleteCustomerCard } from "../../customers/customer-actions";
import { consolePath } from "../../access/console-paths";
import type { ConsoleFlash } from "../console-flash";
import {
  captureFromConsole,
  refundFromConsole,
  releaseFromConsole,
  type ConsoleActor,
} from "../../payments/console-money-operations";
import type { Db } from "../../../db/client";
import { ApiError } from "../../../errors/api-error";
import type { Locale } from "../../../i18n/routing";
import type { ConsoleAction } from "../console-form-route";
import { actorOf } from "./actor";

/*
 * The payment detail's capture, release and refund, and the customer page's card deletion and
 * deactivation (contract 13): owners and support. Each audit entry is written in the
 * transaction that records the change, so both commit or neither.
 */

async function serviceOrThrow(db: Db, principal: ConsolePrincipal): Promise<ServiceContext> {
  const service = await consoleServiceContext(db, principal);
  if (!service) throw new ApiError("not_found", "No merchant.");
  return service;
}

/** A refused form: a field's rule beside the field, any other rule above the form; nothing was done. */
function refusal(error: unknown, form: string, values: Record<string, string>): ConsoleFlash {
  if (!(error instanceof ApiError) || error.errorName === "not_found") throw error;
  const field = error.details?.[0];
  // The key is the error's name: the page words the refusal in its language (components/console/problem-text.ts).
  return {
    kind: "error",
    form,
    key: error.errorName,
    field: field ? field.path : undefined,
    detail: field ? field.message : error.message,
    values,
  };
}

type MoneyOperation = "capture" | "release" | "refund";

function moneyAction(operation: MoneyOperation): ConsoleAction {
  return {
    access: "member",
    capability: "payments.operate",
    async act({ db, locale, fields, ip, principal }) {
      const service = await serviceOrThrow(db, principal);
      const paymentId = fields.paymentId ?? "";
      const formKey = fields.formKey ?? "";
      const audit: Omit<AuditEntry, "action"> = {
        actor: actorOf(principal, ip),
        serviceId: service.id,
        target: paymentId,
      };
      const actor: ConsoleActor = { service, userEmail: principal.user.email };
      const location = consolePath.payment(locale, paymentId);
      const values = { amount: fields.amount ?? "", reason: fields.reason ?? "" };
      if (!formKey) return { location, flash: { kind: "error", form: operation, key: "form_key_missing", values } };
      try {
        if (operation === "capture") {
          await captureFromConsole(db, actor, {
            paymentId,
            formKey,
            amount: values.amount,
            withinTransaction: (tx) => recordAuditEntry(tx, { ...audit, action: "payment_captured" }),
          });
        } else if (operation === "release") {
          await releaseFromConsole(db, actor, {
            paymentId,
            formKey,
            withinTransaction: (tx) => recordAuditEntry(tx, { ...audit, action: "payment_released" }),
          });
        } else {
          await refundFromConsole(db, actor, {
            paymentId,
            formKey,
            amount: values.amount,
            reason: values.reason,
            withinTransaction: (tx) => recordAuditEntry(tx, { ...audit, action: "payment_refunded" }),
          });
        }
      } catch (error) {
        return { location: `${location}?confirm=${operation}`, flash: refusal(error, operation, values) };
      }
      return { location, flash: { kind: "notice", key: operation } };
    },
  };
}

function customerLocation(locale: Locale, customerId: string) {
  return consolePath.customer(locale, customerId);
}

export const paymentActions: Record<string, ConsoleAction> = {
  "payment-capture": moneyAction("capture"),
  "payment-release": moneyAction("release"),
  "payment-refund": moneyAction("refund"),
  "customer-card-delete": {
    access: "member",
    capability: "payments.operate",
    async act({ db, locale, fields, ip, principal }) {
      const service = await serviceOrThrow(db, principal);
      const customerId = fields.customerId ?? "";
      const cardId = fields.cardId ?? "";
      // The card's provider operation runs outside transactions (the provider is called): the entry
      // follows the deletion.
      await deleteCustomerCard(db, { service, customerId, cardId });
      await recordAuditEntry(db, {
        actor: actorOf(principal, ip),
        serviceId: service.id,
        action: "customer_card_deleted",
        target: cardId,
      });
      return { location: customerLocation(locale, customerId), flash: { kind: "notice", key: "cardDeleted" } };
    },
  },
  "customer-deactivate": {
    access: "member",
    capability: "payments.operate",
    async act({ db, locale, fields, ip, principal }) {
      const service = await serviceOrThrow(db, principal);
      const customerId = fields.customerId ?? "";
      await db.transaction(async (tx) => {
        await deactivateCustomer(tx, { serviceId: service.id, customerId });
        await recordAuditEntry(tx, {
          actor: actorOf(principal, ip),
          serviceId: service.id,
          action: "customer_deactivated",
          target: customerId,
        });
      });
      return { location: customerLocation(locale, customerId), flash: { kind: "notice", key: "deactivated" } };
    },
  },
};
