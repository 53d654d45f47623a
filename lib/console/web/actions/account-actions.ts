import { changePassword } from "../../access/change-password";
import { endUserSessions, setActiveMerchant } from "../../access/console-sessions";
import { consolePath } from "../../access/console-paths";
import { setFlash } from "../console-flash";
import { confirmTwoStepSetup, startTwoStepSetup } from "../../access/two-step-setup";
import { turnOffTwoStep } from "../../access/turn-off-two-step";
import { ApiError } from "../../../errors/api-error";
import type { ConsoleAction } from "../console-form-route";
import { actorOf } from "./actor";

/** The Account page's forms and the merchant switcher: about the person, open to every role. */
export const accountActions: Record<string, ConsoleAction> = {
  "change-password": {
    access: "member",
    capability: null,
    async act({ db, locale, fields, ip, principal }) {
      const result = await changePassword(db, {
        actor: actorOf(principal, ip),
        sessionId: principal.sessionId,
        currentPassword: fields.currentPassword ?? "",
        newPassword: fields.newPassword ?? "",
      });
      const location = consolePath.account(locale);
      switch (result.outcome) {
        case "changed":
          return { location, flash: { kind: "notice", key: "passwordChanged" } };
        case "wrong_password":
          return {
            location,
            flash: { kind: "error", form: "password", field: "currentPassword", key: "wrongPassword" },
          };
        case "invalid_new_password":
          return { location, flash: { kind: "error", form: "password", field: "newPassword", key: result.problem } };
      }
    },
  },
  "two-step-start": {
    access: "member",
    capability: null,
    async act({ db, locale, principal }) {
      await startTwoStepSetup(db, principal.user.id);
      return { location: `${consolePath.account(locale)}#two-step` };
    },
  },
  "two-step-confirm": {
    access: "member",
    capability: null,
    async act({ db, locale, fields, ip, principal }) {
      // A step up (issue 42): the session is replaced, whether the merchant required it or not.
      const result = await confirmTwoStepSetup(db, {
        actor: actorOf(principal, ip),
        code: fields.code ?? "",
        sessionId: principal.sessionId,
      });
      const location = `${consolePath.account(locale)}#two-step`;
      switch (result.outcome) {
        case "enabled": {
          const flash = { kind: "recovery_codes", codes: result.recoveryCodes } as const;
          if (!result.session) return { location, flash };
          // The codes are shown once, on the new session's next page.
          await setFlash(db, result.session.sessionId, { ...flash, codes: [...flash.codes] });
          return { location, session: result.session.token };
        }
        case "wrong_code":
          return { location, flash: { kind: "error", form: "two-step", field: "code", key: "wrongCode" } };
        case "no_setup":
          return { location };
      }
    },
  },
  "two-step-off": {
    access: "member",
    capability: null,
    async act({ db, locale, fields, ip, principal }) {
      const result = await turnOffTwoStep(db, { actor: actorOf(principal, ip), password: fields.password ?? "" });
      const location = `${consolePath.account(locale)}#two-step`;
      switch (result.outcome) {
        case "turned_off":
          return { location, flash: { kind: "notice", key: "twoStepOff" } };
        case "wrong_password":
          return { location, flash: { kind: "error", form: "two-step-off", field: "password", key: "wrongPassword" } };
        case "required":
          return {
            location,
            flash: {
              kind: "error",
              form: "two-step-off",
              field: "password",
              key: "twoStepRequired",
              detail: result.merchantName,
            },
          };
      }
    },
  },
  "sign-out-everywhere": {
    access: "member",
    capability: null,
    async act({ db, locale, principal }) {
      await endUserSessions(db, principal.user.id);
      return { location: consolePath.signIn(locale), session: null };
    },
  },
  "switch-merchant": {
    access: "member",
    capability: null,
    async act({ db, locale, fields, principal }) {
      // Only the user's own merchants can be chosen; any other id is as unknown.
      const chosen = principal.memberships.find((membership) => membership.serviceId === fields.merchant);
      if (!chosen) throw new ApiError("not_found", "No such merchant.");
      await setActiveMerchant(db, principal.sessionId, chosen.serviceId);
      return { location: consolePath.home(locale) };
    },
  },
};
