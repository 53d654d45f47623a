import { consolePath } from "../../console/console-paths";
import { updateMerchantSettings } from "../../console-merchants/merchant-settings";
import type { ConsoleAction } from "../console-form-route";
import { actorOf, serviceOf } from "./actor";

/** The Settings page: name, redirect URL, allowed origins (one a line), owners and developers; the time zone, owners. */
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
        return { location, flash: { kind: "error", form: "settings", field: result.field, key: "invalidSetting", detail: result.message, values } };
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
        return { location, flash: { kind: "error", form: "timeZone", field: "timeZone", key: "invalidTimeZone", values: { timeZone: typed } } };
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
      const result = await updateMerchantSettings(db, { actor: actorOf(principal, ip), serviceId: serviceOf(principal), changes: { termsUrl: termsUrl || null } });
      const location = consolePath.settings(locale);
      if (result.outcome === "invalid") {
        return { location, flash: { kind: "error", form: "terms", field: "termsUrl", key: "invalidSetting", detail: result.message, values: { termsUrl } } };
      }
      return { location, flash: { kind: "notice", key: "termsSaved" } };
    },
  },
};
