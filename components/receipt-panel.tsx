import { translator } from "@/lib/i18n/translator";
import { Button, ButtonLink } from "@/components/button";
import { Field } from "@/components/field";
import { Island } from "@/components/island";
import { StatusBanner } from "@/components/status-banner";
import type { ReturnPageReceipt } from "@/lib/hosted/receipts/return-page-receipt";
import type { Locale } from "@/lib/i18n/routing";

/**
 * The receipt on the return page of every method: its lines (all that a print shows, by the print
 * stylesheet in app/globals.css), "Print receipt" (the print-receipt island; hidden without script),
 * "Download receipt (PDF)" and, when SMTP_URL is set, "Email" with "Send receipt".
 */
export function ReceiptPanel({ locale, receipt }: { locale: Locale; receipt: ReturnPageReceipt }) {
  const t = translator(locale, "receipt");
  const { content, notice } = receipt;
  return (
    <>
      <section
        id="receipt"
        aria-labelledby="receipt-heading"
        className="flex flex-col gap-3 rounded-xl bg-white px-4 py-4 ring-1 ring-slate-200"
      >
        <h2 id="receipt-heading" className="text-base font-semibold text-slate-900">
          {content.title}
        </h2>
        <dl className="grid gap-2 text-sm">
          {content.rows.map((row) => (
            <div key={row.field} className="flex flex-col">
              <dt className="text-xs text-slate-600">{row.label}</dt>
              {/* References and amounts read left to right; on the reading side, whole, even in Arabic. */}
              <dd className="break-all text-slate-900">{row.ltr ? <bdi dir="ltr">{row.value}</bdi> : row.value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <div id="receipt-actions" className="flex flex-col gap-3">
        <Button id="print-receipt" variant="secondary" hidden>
          {t("print")}
        </Button>
        <ButtonLink variant="secondary" href={receipt.pdfHref} download={content.fileName}>
          {t("download")}
        </ButtonLink>
        {notice === "receipt_sent" ? (
          <StatusBanner tone="success" role="status">
            {t("sent")}
          </StatusBanner>
        ) : notice === "receipt_too_many" || notice === "receipt_failed" ? (
          <StatusBanner tone="error" role="alert">
            {t(notice === "receipt_too_many" ? "tooMany" : "sendFailed")}
          </StatusBanner>
        ) : null}
        {receipt.email ? (
          <form method="post" action={receipt.email.action} className="flex flex-col gap-3">
            <input type="hidden" name="token" value={receipt.email.token} />
            <input type="hidden" name="formToken" value={receipt.email.formToken} />
            {receipt.email.returnUrl ? <input type="hidden" name="returnUrl" value={receipt.email.returnUrl} /> : null}
            <Field
              id="receipt-email"
              name="email"
              type="email"
              dir="ltr"
              autoComplete="email"
              required
              maxLength={254}
              label={t("email")}
              hint={t("emailHint")}
              error={notice === "receipt_email_invalid" ? t("emailInvalid") : null}
            />
            <Button type="submit" variant="secondary">
              {t("send")}
            </Button>
          </form>
        ) : null}
      </div>
      <Island name="print-receipt" />
    </>
  );
}
