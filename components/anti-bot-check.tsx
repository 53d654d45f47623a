import { translator } from "@/lib/i18n/translator";
import { Field } from "@/components/field";
import { Island } from "@/components/island";
import type { AntiBotIslandConfig } from "@/components/islands/anti-bot";
import { ANTI_BOT_FIELDS, type AntiBotChallenge, type AntiBotResult } from "@/lib/hosted/anti-bot/anti-bot-check";
import type { Locale } from "@/lib/i18n/routing";

type Failure = Extract<AntiBotResult, { passed: false }>["reason"];

/**
 * The anti-bot check of a hosted form, no third-party code: where script runs, the anti-bot
 * island solves ALTCHA's proof of work and the code field goes away; without script, the buyer
 * types the six digits of the image. Verified by `verifyAntiBot` (lib/hosted/anti-bot). `failure`:
 * why the last post did not pass, said beside the field.
 */
export function AntiBotCheck({
  locale,
  check,
  failure = null,
  sandbox = false,
}: {
  locale: Locale;
  check: AntiBotChallenge;
  failure?: Failure | null;
  /** The sandbox's hint names the code that always passes there (contract 15); production's never does. */
  sandbox?: boolean;
}) {
  const t = translator(locale, "antiBot");
  const config: AntiBotIslandConfig = { challenge: check.challenge, working: t("working"), passed: t("passed") };
  return (
    <fieldset id="anti-bot" className="flex flex-col gap-3 rounded-xl px-4 py-3 ring-1 ring-slate-200">
      <legend className="px-1 text-sm font-semibold text-slate-800">{t("legend")}</legend>
      <p id="anti-bot-status" role="status" className="text-sm text-slate-700" hidden />
      <input type="hidden" id="anti-bot-solution" name={ANTI_BOT_FIELDS.solution} value="" />
      <div id="anti-bot-code" className="flex flex-col gap-3">
        <img
          src={check.code.image}
          alt={t("codeImage")}
          width={180}
          height={56}
          className="rounded-md ring-1 ring-slate-200"
        />
        <input type="hidden" name={ANTI_BOT_FIELDS.codeToken} value={check.code.token} />
        <Field
          id="anti-bot-code-input"
          name={ANTI_BOT_FIELDS.code}
          label={t("codeLabel")}
          hint={sandbox ? `${t("codeHint")} ${t("codeHintSandbox")}` : t("codeHint")}
          inputMode="numeric"
          autoComplete="off"
          dir="ltr"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          error={failure === null ? null : t(failure === "expired" ? "expired" : "failed")}
        />
      </div>
      <Island name="anti-bot" config={config} />
    </fieldset>
  );
}
