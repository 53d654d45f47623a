import { consolePath } from "../../access/console-paths";
import { updateMerchantSettings } from "../../merchants/merchant-settings";
import { ApiError } from "../../../errors/api-error";
import type { Locale } from "../../../i18n/routing";
import { isPaymentMethodCode, type PaymentMethodCode } from "../../../payment-methods/codes/payment-method-codes";
import { setMethodCredentials, testMethodConnection } from "../../../payment-methods/method-credentials";
import { PAYMENT_METHODS } from "../../../payment-methods/registry/payment-method-registry";
import type { ConsoleAction } from "../console-form-route";
import { actorOf, serviceOf } from "./actor";

/** A redirect method (one with provider credentials) named by a form; anything else is as unknown (404). */
function redirectMethodOf(value: string | undefined): PaymentMethodCode {
  if (!isPaymentMethodCode(value) || !PAYMENT_METHODS[value].redirect)
    throw new ApiError("not_found", "No such payment method.");
  return value;
}

/** Back to the method's own section of Settings, where the answer shows beside its form. */
const methodSection = (locale: Locale, code: PaymentMethodCode) =>
  `${consolePath.settings(locale)}#method-${code.toLowerCase()}`;

/**
 * The Settings page: name, redirect URL, allowed origins (one a line), owners and developers; the
 * time zone and payment methods, owners.
 */
export const settingsActions: Record<string, ConsoleAction> = {
  settings: {
    access: "member",
    capability: "integration.manage",
    async act({ db, locale, fields, ip, principal }) {
      const redirectUrl = (fields.redirectUrl ?? "").trim();
      const origins = (fields.origins ?? "")
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean);
      const result = await updateMerchantSettings(db, {
        actor: actorOf(principal, ip),
        serviceId: serviceOf(principal),
        changes: { name: fields.name ?? "", redirectUrl: redirectUrl || null, origins },
      });
      const location = consolePath.settings(locale);
      if (result.outcome === "invalid") {
        const values = { name: fields.name ?? "", redirectUrl, origins: fields.origins ?? "" };
        return {
          location,
          flash: {
            kind: "error",
            form: "settings",
            field: result.field,
            key: "invalidSetting",
            detail: result.message,
            values,
          },
        };
      }
      return { location, flash: { kind: "notice", key: "settingsSaved" } };
    },
  },
  /** The merchant's time zone (contract 13): owners only; left empty, the first country's. */
  "time-zone": {
    access: "member",
    capability: "merchant.manage",
    async act({ db, locale, fields, ip, principal }) {
      const typed = (fields.timeZone ?? "").trim();
      const result = await updateMerchantSettings(db, {
        actor: actorOf(principal, ip),
        serviceId: serviceOf(principal),
        changes: { timeZone: typed === "" ? null : typed },
      });
      const location = consolePath.settings(locale);
      if (result.outcome === "invalid") {
        return {
          location,
          flash: {
            kind: "error",
            form: "timeZone",
            field: "timeZone",
            key: "invalidTimeZone",
            values: { timeZone: typed },
          },
        };
      }
      return { location, flash: { kind: "notice", key: "timeZoneSaved" } };
    },
  },
  /** The terms of payment URL the SATIM checkout links (its own form, so the other settings stay as they are). */
  terms: {
    access: "member",
    capability: "integration.manage",
    async act({ db, locale, fields, ip, principal }) {
      const termsUrl = (fields.termsUrl ?? "").trim();
      const result = await updateMerchantSettings(db, {
        actor: actorOf(principal, ip),
        serviceId: serviceOf(principal),
        changes: { termsUrl: termsUrl || null },
      });
      const location = consolePath.settings(locale);
      if (result.outcome === "invalid") {
        return {
          location,
          flash: {
            kind: "error",
            form: "terms",
            field: "termsUrl",
            key: "invalidSetting",
            detail: result.message,
            values: { termsUrl },
          },
        };
      }
      return { location, flash: { kind: "notice", key: "termsSaved" } };
    },
  },
  /**
   * A payment method's provider credentials (contract 15, "Enabling"): the fields its provider
   * declares (RedirectProvider.credentialFields), through the same operation as `npm run merchant --
   * update`. A secret left empty keeps the stored one; a refused field is named and no typed
   * secret is ever sent back to the page.
   */
  "payment-method-credentials": {
    access: "member",
    capability: "merchant.manage",
    async act({ db, locale, fields, ip, principal }) {
      const code = redirectMethodOf(fields.method);
      const declared = PAYMENT_METHODS[code].redirect!.credentialFields;
      const settings = Object.fromEntries(
        declared.map((field) => [
          field.name,
          field.secret ? (fields[field.name] ?? "") : (fields[field.name] ?? "").trim(),
        ]),
      );
      const location = methodSection(locale, code);
      try {
        const saved = await setMethodCredentials(db, {
          serviceId: serviceOf(principal),
          code,
          settings,
          actor: actorOf(principal, ip),
        });
        return { location, flash: { kind: "connection_test", method: code, saved: true, result: saved.connection } };
      } catch (error) {
        if (!(error instanceof ApiError) || error.errorName !== "validation_error") throw error;
        const detail = error.details?.[0];
        const values = Object.fromEntries(
          declared.filter((field) => !field.secret).map((field) => [field.name, settings[field.name] ?? ""]),
        );
        return {
          location,
          flash: {
            kind: "error",
            form: `method-${code}`,
            field: detail?.path,
            key: "invalidCredential",
            detail: detail?.message,
            values,
          },
        };
      }
    },
  },
  /** "Test connection": the provider's harmless call with the stored credentials; its answer shows beside the form. */
  "payment-method-test": {
    access: "member",
    capability: "merchant.manage",
    async act({ db, locale, fields, principal }) {
      const code = redirectMethodOf(fields.method);
      const result = await testMethodConnection(db, { serviceId: serviceOf(principal), code });
      return {
        location: methodSection(locale, code),
        flash: { kind: "connection_test", method: code, saved: false, result },
      };
    },
  },
};
