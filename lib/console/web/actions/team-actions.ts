import { consolePath } from "../../access/console-paths";
import { emailInvitation } from "../../access/invitation-mail";
import { cancelInvitation, createInvitation } from "../../access/invitations";
import { createMemberResetLink } from "../../access/password-resets";
import { isConsoleRole } from "../../access/roles";
import { normalizeEmail } from "../../access/sign-in-lockout";
import { changeMemberRole, removeMember } from "../../access/team";
import { setTwoStepRequirement } from "../../access/two-step-policy";
import type { ConsoleAction } from "../console-form-route";
import { actorOf, serviceOf } from "./actor";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The Team page: owners only (contract 13). */
export const teamActions: Record<string, ConsoleAction> = {
  invite: {
    access: "member",
    capability: "team.manage",
    async act({ db, locale, fields, ip, principal }) {
      const location = consolePath.team(locale);
      const email = normalizeEmail(fields.email ?? "");
      const values = { email: fields.email ?? "", role: fields.role ?? "" };
      if (!EMAIL.test(email) || email.length > 254)
        return { location, flash: { kind: "error", form: "invite", field: "email", key: "invalidEmail", values } };
      if (!isConsoleRole(fields.role))
        return { location, flash: { kind: "error", form: "invite", field: "role", key: "invalidRole", values } };
      const { inviteUrl } = await createInvitation(db, {
        serviceId: serviceOf(principal),
        email,
        role: fields.role,
        actor: actorOf(principal, ip),
      });
      const emailed = await emailInvitation({
        email,
        merchantName: principal.membership?.merchantName ?? "",
        role: fields.role,
        inviteUrl,
      });
      return { location, flash: { kind: "invitation_link", url: inviteUrl, email, emailed } };
    },
  },
  "cancel-invitation": {
    access: "member",
    capability: "team.manage",
    async act({ db, locale, fields, ip, principal }) {
      // Another merchant's invitation, or one used or expired meanwhile, is not found (404).
      await cancelInvitation(db, {
        serviceId: serviceOf(principal),
        invitationId: fields.invitation ?? "",
        actor: actorOf(principal, ip),
      });
      return { location: consolePath.team(locale), flash: { kind: "notice", key: "invitationCanceled" } };
    },
  },
  "change-role": {
    access: "member",
    capability: "team.manage",
    async act({ db, locale, fields, ip, principal }) {
      const result = await changeMemberRole(db, {
        actor: actorOf(principal, ip),
        serviceId: serviceOf(principal),
        userId: fields.member ?? "",
        role: fields.role ?? "",
      });
      const location = consolePath.team(locale);
      return result.outcome === "done"
        ? { location, flash: { kind: "notice", key: "roleChanged" } }
        : { location, flash: { kind: "error", form: "team", key: "lastOwner" } };
    },
  },
  "remove-member": {
    access: "member",
    capability: "team.manage",
    async act({ db, locale, fields, ip, principal }) {
      const result = await removeMember(db, {
        actor: actorOf(principal, ip),
        serviceId: serviceOf(principal),
        userId: fields.member ?? "",
      });
      const location = consolePath.team(locale);
      return result.outcome === "done"
        ? { location, flash: { kind: "notice", key: "memberRemoved" } }
        : { location, flash: { kind: "error", form: "team", key: "lastOwner" } };
    },
  },
  "reset-member-password": {
    access: "member",
    capability: "team.manage",
    async act({ db, locale, fields, ip, principal }) {
      const location = consolePath.team(locale);
      const result = await createMemberResetLink(db, {
        actor: actorOf(principal, ip),
        serviceId: serviceOf(principal),
        userId: fields.member ?? "",
      });
      if (result.outcome === "member_of_other_merchants")
        return { location, flash: { kind: "error", form: "team", key: "memberOfOtherMerchants" } };
      return { location, flash: { kind: "reset_link", url: result.resetUrl, email: result.email } };
    },
  },
  "require-two-step": {
    access: "member",
    capability: "team.manage",
    async act({ db, locale, fields, ip, principal }) {
      await setTwoStepRequirement(db, {
        actor: actorOf(principal, ip),
        serviceId: serviceOf(principal),
        required: fields.required === "on" || fields.required === "true",
      });
      return { location: consolePath.team(locale), flash: { kind: "notice", key: "twoStepPolicySaved" } };
    },
  },
};
