import { Button } from "@/components/button";
import { ConsoleForm, ConsoleNotice } from "@/components/console/console-form";
import { ConsoleCardShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { IsolatedText } from "@/components/console/isolated-text";
import { findOpenInvitation } from "@/lib/console/access/invitations";
import { queryValue, type SignedOutConsolePage, type SignedOutPageRequest } from "@/lib/console/web/console-page";
import { translator } from "@/lib/i18n/translator";

/**
 * GET /{locale}/console/invitations/{token}: a new person sets a name and a password; an existing one gives
 * its password.
 */
async function renderInvitationPage({ db, locale, params, query }: SignedOutPageRequest) {
  const token = params.token!;
  const t = translator(locale, "console");
  const invitation = await findOpenInvitation(db, token);
  const path = `/console/invitations/${encodeURIComponent(token)}`;
  if (!invitation) {
    return (
      <ConsoleCardShell locale={locale} path={path} title={t("invitation.notOpenTitle")}>
        <p className="text-slate-800">{t("invitation.notOpenBody")}</p>
      </ConsoleCardShell>
    );
  }
  const error = queryValue(query, "error");
  const errorText = error && t.has(`invitation.errors.${error}`) ? t(`invitation.errors.${error}`) : null;
  const existing = invitation.existingUserId !== null;
  return (
    <ConsoleCardShell locale={locale} path={path} title={t("invitation.title", { merchant: invitation.merchantName })}>
      <p className="text-slate-800">
        <IsolatedText
          text={t("invitation.intro", { role: t(`roles.${invitation.role}`), email: invitation.email })}
          values={[invitation.email]}
        />
      </p>
      {existing ? (
        <p className="text-slate-800">
          <IsolatedText text={t("invitation.existing", { email: invitation.email })} values={[invitation.email]} />
        </p>
      ) : null}
      {errorText && error === "locked" ? <ConsoleNotice tone="error">{errorText}</ConsoleNotice> : null}
      <ConsoleForm locale={locale} action="accept-invitation">
        <input type="hidden" name="invitation" value={token} />
        {existing ? null : (
          <Field
            id="name"
            name="name"
            label={t("invitation.name")}
            autoComplete="name"
            required
            maxLength={120}
            defaultValue={queryValue(query, "name")}
            error={error === "name_required" ? errorText : null}
          />
        )}
        <Field
          id="password"
          name="password"
          type="password"
          label={t("invitation.password")}
          hint={existing ? undefined : t("invitation.passwordHint")}
          autoComplete={existing ? "current-password" : "new-password"}
          required
          maxLength={256}
          error={errorText && error !== "name_required" && error !== "locked" ? errorText : null}
        />
        <Button type="submit">{t("invitation.submit")}</Button>
      </ConsoleForm>
    </ConsoleCardShell>
  );
}

export const invitationPage: SignedOutConsolePage = {
  signedOut: true,
  title: { messages: "console.invitationPage" },
  render: renderInvitationPage,
};
