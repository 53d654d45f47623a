import { getTranslations } from "next-intl/server";
import { Button } from "@/components/button";
import { ConsoleForm, ConsoleNotice } from "@/components/console/console-form";
import { ConsoleCardShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { IsolatedText } from "@/components/console/isolated-text";
import { findOpenInvitation } from "@/lib/console/access/invitations";
import { getDb } from "@/lib/db/client";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { pageLocale, queryValue } from "../../_lib/open-console-page";

export const generateMetadata = titleFromMessages("console.invitationPage");

/** GET /{locale}/console/invitations/{token}: a new person sets a name and a password; an existing one gives its password. */
export default async function InvitationPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string; token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const locale = await pageLocale(params);
  const { token } = await params;
  const query = await searchParams;
  const t = await getTranslations({ locale, namespace: "console" });
  const invitation = await findOpenInvitation(await getDb(), token);
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
        <IsolatedText text={t("invitation.intro", { role: t(`roles.${invitation.role}`), email: invitation.email })} values={[invitation.email]} />
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
