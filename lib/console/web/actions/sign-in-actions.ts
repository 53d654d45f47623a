import { acceptInvitation } from "../../access/accept-invitation";
import { endConsoleSession } from "../../access/console-sessions";
import { consolePath } from "../../access/console-paths";
import { requestPasswordReset, resetPassword } from "../../access/password-resets";
import { signIn } from "../../access/sign-in";
import { signUp } from "../../merchants/sign-up";
import { verifySecondStep } from "../../access/verify-second-step";
import { getConfig } from "../../../config";
import { ApiError } from "../../../errors/api-error";
import type { ConsoleAction } from "../console-form-route";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const withError = (path: string, error: string, extra: Record<string, string> = {}) =>
  `${path}?${new URLSearchParams({ error, ...extra }).toString()}`;

/** The forms of people not signed in yet, and signing out. */
export const signInActions: Record<string, ConsoleAction> = {
  "sign-in": {
    access: "anonymous",
    async act({ db, locale, fields, ip }) {
      const result = await signIn(db, { email: fields.email ?? "", password: fields.password ?? "", ip });
      switch (result.outcome) {
        case "locked":
          return { location: withError(consolePath.signIn(locale), "locked") };
        case "refused":
          return { location: withError(consolePath.signIn(locale), "refused") };
        case "signed_in":
          return {
            location: result.needsCode ? consolePath.codeStep(locale) : consolePath.home(locale),
            session: result.token,
          };
      }
    },
  },
  "verify-code": {
    access: "code_step",
    async act({ db, locale, fields, ip, session }) {
      const result = await verifySecondStep(db, {
        sessionId: session.id,
        user: session.user,
        code: fields.code ?? "",
        ip,
      });
      switch (result.outcome) {
        case "verified":
          return { location: consolePath.home(locale), session: result.token };
        case "refused":
          return { location: withError(consolePath.codeStep(locale), "wrong_code") };
        case "locked":
          return { location: withError(consolePath.signIn(locale), "locked"), session: null };
      }
    },
  },
  "sign-up": {
    access: "anonymous",
    async act({ db, locale, fields, ip }) {
      // Production has no sign-up (contract 13): its form posts nowhere.
      if (!getConfig().isSandbox) throw new ApiError("not_found", "No sign-up in production.");
      const result = await signUp(db, {
        name: fields.name ?? "",
        email: fields.email ?? "",
        password: fields.password ?? "",
        businessName: fields.businessName ?? "",
        ip,
      });
      // The home leads on (issue 42): the keys are a link away, on Developers.
      if (result.outcome === "created") return { location: consolePath.home(locale), session: result.token };
      const kept = { name: fields.name ?? "", email: fields.email ?? "", businessName: fields.businessName ?? "" };
      return { location: withError(consolePath.signUp(locale), result.problem, { field: result.field, ...kept }) };
    },
  },
  "accept-invitation": {
    access: "anonymous",
    async act({ db, locale, fields, ip }) {
      const token = fields.invitation ?? "";
      const result = await acceptInvitation(db, {
        token,
        name: fields.name ?? "",
        password: fields.password ?? "",
        ip,
      });
      const page = consolePath.invitation(locale, token);
      switch (result.outcome) {
        case "joined":
          return {
            location: result.needsCode ? consolePath.codeStep(locale) : consolePath.home(locale),
            session: result.token,
          };
        case "not_open":
          return { location: page };
        case "invalid_name":
          return { location: withError(page, "name_required", { name: fields.name ?? "" }) };
        case "invalid_password":
          return { location: withError(page, result.problem, { name: fields.name ?? "" }) };
        case "wrong_password":
          return { location: withError(page, "refused") };
        case "locked":
          return { location: withError(page, "locked") };
      }
    },
  },
  "forgot-password": {
    access: "anonymous",
    async act({ db, locale, fields, ip }) {
      const page = consolePath.forgotPassword(locale);
      const email = (fields.email ?? "").trim();
      if (!EMAIL.test(email) || email.length > 254) return { location: withError(page, "invalidEmail", { email }) };
      const result = await requestPasswordReset(db, { email, ip });
      switch (result.outcome) {
        case "accepted":
          return { location: `${page}?sent=1` };
        case "locked":
          return { location: withError(page, "locked") };
        case "no_mail":
          return { location: page };
      }
    },
  },
  "reset-password": {
    access: "anonymous",
    async act({ db, locale, fields, ip }) {
      const token = fields.token ?? "";
      const result = await resetPassword(db, { token, newPassword: fields.password ?? "", ip });
      switch (result.outcome) {
        case "reset":
          return { location: `${consolePath.signIn(locale)}?notice=password_reset` };
        case "not_open":
          return { location: consolePath.resetPassword(locale, token) };
        case "invalid_password":
          return { location: withError(consolePath.resetPassword(locale, token), result.problem) };
      }
    },
  },
  "sign-out": {
    access: "member",
    capability: null,
    async act({ db, locale, principal }) {
      await endConsoleSession(db, principal.sessionId);
      return { location: consolePath.signIn(locale), session: null };
    },
  },
};
