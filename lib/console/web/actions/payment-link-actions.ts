import { instantOfWallClock } from "../../../merchants/merchant-time-zone";
import { consolePath } from "../../access/console-paths";
import { ApiError } from "../../../errors/api-error";
import type { FormBody } from "../../../hosted/read-form-body";
import { createPaymentLink } from "../../../payment-links/create-payment-link";
import { deactivatePaymentLink } from "../../../payment-links/deactivate-payment-link";
import { createPaymentLinkBody } from "../../../payment-links/payment-link.schema";
import { NEGATIVE_AMOUNT, readTypedAmount } from "../../../money/typed-amount";
import type { ConsoleAction } from "../console-form-route";
import { actorOf, serviceOf } from "./actor";

/** The create form's text fields, kept to show again beside an error. */
export const PAYMENT_LINK_FORM_FIELDS = [
  "title",
  "description",
  "amount",
  "minAmount",
  "maxAmount",
  "currency",
  "countryCode",
  "captureMethod",
  "expiresAt",
  "locale",
] as const;

const filled = (value: string | undefined) => (value ?? "").trim() || undefined;
const AMOUNT_FIELDS = ["amount", "minAmount", "maxAmount"] as const;
// A typed number (a decimal comma too: lib/money/typed-amount.ts); anything else is passed as
// typed, for the schema to say "must be a number".
const amountOf = (value: string | undefined) => {
  const typed = readTypedAmount(value);
  return typed.kind === "empty" ? undefined : typed.kind === "amount" ? typed.value : (value ?? "").trim();
};
// The form's datetime-local has no zone: it is the merchant's, as every time the console shows.
const instantOf = (value: string | undefined, timeZone: string) => {
  const text = filled(value);
  if (text === undefined || /(Z|[+-]\d{2}:\d{2})$/i.test(text)) return text;
  const wallClock = text.length === 16 ? `${text}:00` : text;
  // Not a time at all: the API's schema says so beside the field.
  return Number.isNaN(Date.parse(`${wallClock}Z`)) ? text : instantOfWallClock(wallClock, timeZone).toISOString();
};

/** The create form's fields as the API's body (contract 14), for the one schema to judge. */
function bodyOf(fields: FormBody, timeZone: string) {
  return {
    title: fields.title ?? "",
    description: filled(fields.description),
    amount: amountOf(fields.amount),
    minAmount: amountOf(fields.minAmount),
    maxAmount: amountOf(fields.maxAmount),
    currency: (fields.currency ?? "").trim().toUpperCase(),
    countryCode: (fields.countryCode ?? "").trim().toUpperCase(),
    captureMethod: filled(fields.captureMethod),
    reusable: fields.reusable === "on",
    expiresAt: instantOf(fields.expiresAt, timeZone),
    locale: filled(fields.locale),
  };
}

/** The Payment links page's forms: owners, developers and support (contract 13). */
export const paymentLinkActions: Record<string, ConsoleAction> = {
  "create-payment-link": {
    access: "member",
    capability: "payment_links.manage",
    async act({ db, locale, fields, ip, principal }) {
      const location = consolePath.paymentLinks(locale);
      const values = Object.fromEntries(PAYMENT_LINK_FORM_FIELDS.map((name) => [name, fields[name] ?? ""]));
      const refused = (field: string, detail: string) => ({
        location,
        flash: {
          kind: "error" as const,
          form: "create-payment-link",
          field,
          key: "invalidLink",
          detail,
          values: { ...values, reusable: fields.reusable ?? "" },
        },
      });
      const negative = AMOUNT_FIELDS.find((field) => readTypedAmount(fields[field]).kind === "negative");
      if (negative) return refused(negative, NEGATIVE_AMOUNT);
      const parsed = createPaymentLinkBody.safeParse(bodyOf(fields, principal.membership!.timeZone));
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        return refused(String(issue.path[0] ?? "title"), issue.message);
      }
      try {
        await createPaymentLink(db, {
          serviceId: serviceOf(principal),
          input: parsed.data,
          actor: actorOf(principal, ip),
        });
      } catch (error) {
        const detail =
          error instanceof ApiError && error.errorName === "validation_error" ? error.details?.[0] : undefined;
        if (!detail) throw error;
        return refused(detail.path, detail.message);
      }
      return { location, flash: { kind: "notice", key: "linkCreated" } };
    },
  },
  "deactivate-payment-link": {
    access: "member",
    capability: "payment_links.manage",
    async act({ db, locale, fields, ip, principal }) {
      // Another merchant's link is not found (404), like an unknown one.
      await deactivatePaymentLink(db, {
        serviceId: serviceOf(principal),
        id: fields.link ?? "",
        actor: actorOf(principal, ip),
      });
      return { location: consolePath.paymentLinks(locale), flash: { kind: "notice", key: "linkDeactivated" } };
    },
  },
};
