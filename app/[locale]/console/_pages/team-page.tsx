import { consoleDateTime } from "@/components/console/payment-labels";
import { Button } from "@/components/button";
import { ConsoleForm, ConsoleNotice, ReadOnlyValue, Section, SelectField } from "@/components/console/console-form";
import { ConsoleShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { CONSOLE_ROLES } from "@/lib/console/access/roles";
import { listTeam } from "@/lib/console/access/team";
import type { ConsolePage } from "@/lib/console/web/console-page";
import type { OpenConsolePage } from "@/lib/console/web/open-console-session";
import { translator } from "@/lib/i18n/translator";

/** GET /{locale}/console/team (owners): members and their roles, invitations, the two-step requirement. */
async function renderTeamPage({ db, locale, principal, formToken, flash }: OpenConsolePage) {
  const serviceId = principal.membership!.serviceId;
  const t = translator(locale, "console");
  const { members, invitations } = await listTeam(db, serviceId);
  // Read with the principal, in the sign-in check's one statement.
  const required = principal.membership!.requiresTwoStep;
  const inviteError = flash?.kind === "error" && flash.form === "invite" ? t(`team.errors.${flash.key}`) : null;
  const dateTime = consoleDateTime(locale, principal.membership!.timeZone);
  const roleOptions = CONSOLE_ROLES.map((role) => ({ value: role, label: t(`roles.${role}`) }));
  return (
    <ConsoleShell
      locale={locale}
      path="/console/team"
      principal={principal}
      formToken={formToken}
      title={t("team.title")}
    >
      {flash?.kind === "notice" && t.has(`team.notices.${flash.key}`) ? (
        <ConsoleNotice tone="success">{t(`team.notices.${flash.key}`)}</ConsoleNotice>
      ) : null}
      {flash?.kind === "error" && flash.form === "team" ? (
        <ConsoleNotice tone="error">{t(`team.errors.${flash.key}`)}</ConsoleNotice>
      ) : null}

      <Section title={t("team.inviteTitle")} id="invite">
        {flash?.kind === "invitation_link" ? (
          <ReadOnlyValue
            id="invitation-link"
            label={t("team.invitationLink")}
            value={flash.url}
            hint={t(flash.emailed ? "team.invitationEmailed" : "team.invitationLinkIntro", { email: flash.email })}
          />
        ) : null}
        <ConsoleForm locale={locale} action="invite" formToken={formToken}>
          <Field
            id="invite-email"
            name="email"
            type="email"
            label={t("team.email")}
            required
            maxLength={254}
            defaultValue={flash?.kind === "error" ? flash.values?.email : undefined}
            error={flash?.kind === "error" && flash.field === "email" ? inviteError : null}
          />
          <SelectField
            id="invite-role"
            name="role"
            label={t("team.role")}
            defaultValue="viewer"
            options={roleOptions}
          />
          <Button type="submit">{t("team.invite")}</Button>
        </ConsoleForm>
      </Section>

      <Section title={t("team.members")}>
        {flash?.kind === "reset_link" ? (
          <ReadOnlyValue
            id="reset-link"
            label={t("team.resetLink")}
            value={flash.url}
            hint={t("team.resetLinkIntro", { email: flash.email })}
          />
        ) : null}
        <ul className="flex flex-col divide-y divide-slate-200">
          {members.map((member) => (
            <li key={member.userId} className="flex flex-col gap-3 py-3">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-semibold wrap-anywhere">
                  {member.name}{" "}
                  <span className="font-normal text-slate-700">
                    · <bdi>{member.email}</bdi>
                  </span>
                  {member.userId === principal.user.id ? (
                    <span className="text-slate-700"> ({t("team.you")})</span>
                  ) : null}
                </p>
                <p className="text-sm text-slate-700">
                  {t("team.twoStep")}: {member.twoStepOn ? t("team.on") : t("team.off")}
                </p>
              </div>
              <div className="flex flex-wrap items-end gap-2">
                <ConsoleForm
                  locale={locale}
                  action="change-role"
                  formToken={formToken}
                  className="flex flex-wrap items-end gap-2"
                >
                  <input type="hidden" name="member" value={member.userId} />
                  <SelectField
                    id={`role-${member.userId}`}
                    name="role"
                    label={t("team.roleOf", { email: member.email })}
                    defaultValue={member.role}
                    options={roleOptions}
                    compact
                  />
                  <Button type="submit" variant="secondary" className="min-h-11 w-auto">
                    {t("team.changeRole")}
                  </Button>
                </ConsoleForm>
                <ConsoleForm locale={locale} action="reset-member-password" formToken={formToken} className="flex">
                  <input type="hidden" name="member" value={member.userId} />
                  <Button
                    type="submit"
                    variant="secondary"
                    className="min-h-11 w-auto"
                    aria-label={t("team.makeResetLink", { email: member.email })}
                  >
                    {t("team.resetLinkButton")}
                  </Button>
                </ConsoleForm>
                <ConsoleForm locale={locale} action="remove-member" formToken={formToken} className="flex">
                  <input type="hidden" name="member" value={member.userId} />
                  <Button
                    type="submit"
                    variant="secondary"
                    className="min-h-11 w-auto"
                    aria-label={t("team.removeMember", { email: member.email })}
                  >
                    {t("team.remove")}
                  </Button>
                </ConsoleForm>
              </div>
            </li>
          ))}
        </ul>
        {invitations.length > 0 ? (
          <>
            <h3 className="font-semibold">{t("team.pending")}</h3>
            <ul className="flex flex-col gap-1 text-sm text-slate-800">
              {invitations.map((invitation) => (
                <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 wrap-anywhere">
                  <span>
                    <bdi>{invitation.email}</bdi> · {t(`roles.${invitation.role}`)} ·{" "}
                    {t("team.expires", { at: dateTime.format(invitation.expiresAt) })}
                  </span>
                  <ConsoleForm
                    locale={locale}
                    action="cancel-invitation"
                    formToken={formToken}
                    className="flex"
                    label={t("team.cancelInvitationOf", { email: invitation.email })}
                  >
                    <input type="hidden" name="invitation" value={invitation.id} />
                    <Button type="submit" variant="quiet" className="min-h-11 w-auto">
                      {t("team.cancelInvitation")}
                    </Button>
                  </ConsoleForm>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </Section>

      <Section title={t("team.policyTitle")}>
        <ConsoleForm locale={locale} action="require-two-step" formToken={formToken}>
          <div className="flex items-center gap-3">
            <input
              id="require-two-step"
              type="checkbox"
              name="required"
              defaultChecked={required}
              className="size-5 accent-teal-700"
            />
            <label htmlFor="require-two-step" className="text-slate-900">
              {t("team.requireTwoStep")}
            </label>
          </div>
          <Button type="submit" variant="secondary">
            {t("team.save")}
          </Button>
        </ConsoleForm>
      </Section>
    </ConsoleShell>
  );
}

export const teamPage = {
  title: { messages: "console.team" },
  capability: "team.manage",
  render: renderTeamPage,
} satisfies ConsolePage;
