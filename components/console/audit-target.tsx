import { isConsoleRole } from "@/lib/console/access/roles";
import type { Locale } from "@/lib/i18n/routing";
import { translator } from "@/lib/i18n/translator";

// The words the audit log stores as a target (lib/console/access/sign-in.ts, verify-second-step.ts,
// accept-invitation.ts, merchant-settings.ts).
const WORDS: Readonly<Record<string, string>> = {
  password: "password",
  "authentication code": "authenticationCode",
  "recovery code": "recoveryCode",
  invitation: "invitation",
  none: "none",
};
// A settings change names the fields it changed (merchant-settings.ts), by their API names.
const SETTINGS = /^[a-zA-Z]+(?:, [a-zA-Z]+)*$/;

/**
 * An entry's target in the reader's language. The log keeps what was written (append-only, the
 * API's words); the page words it: "password" and the other fixed words, the role of an invitation
 * (`email (role)`) or of a role change (`email: role → role`), the fields of a settings change.
 * What is left (an id, an email, a URL, a business name) is shown isolated, so an Arabic line
 * keeps it whole.
 */
export function AuditTarget({ locale, target }: { locale: Locale; target: string | null }) {
  const t = translator(locale, "console");
  if (target === null) return "—";
  const role = (name: string) => (isConsoleRole(name) ? t(`roles.${name}`) : name);
  if (Object.hasOwn(WORDS, target)) return t(`auditLog.targets.${WORDS[target]}`);
  const invited = /^(.+) \((\w+)\)$/.exec(target);
  if (invited && isConsoleRole(invited[2])) {
    return (
      <>
        <bdi dir="ltr">{invited[1]}</bdi> ({role(invited[2]!)})
      </>
    );
  }
  const changed = /^(.+): (\w+) → (\w+)$/.exec(target);
  if (changed && isConsoleRole(changed[2]) && isConsoleRole(changed[3])) {
    return (
      <>
        <bdi dir="ltr">{changed[1]}</bdi>:{" "}
        {t("auditLog.targets.roleChange", { from: role(changed[2]!), to: role(changed[3]!) })}
      </>
    );
  }
  if (SETTINGS.test(target) && target.split(", ").every((field) => t.has(`auditLog.settingsFields.${field}`))) {
    return target
      .split(", ")
      .map((field) => t(`auditLog.settingsFields.${field}`))
      .join(t("auditLog.targets.separator"));
  }
  return <bdi dir="auto">{target}</bdi>;
}
