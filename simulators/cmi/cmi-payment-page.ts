import { createHash } from "node:crypto";

const PAGE_STYLE =
  "body{font-family:system-ui,sans-serif;max-width:26rem;margin:0 auto;padding:1rem;color:#0f172a}" +
  "label{display:block;margin-top:.75rem;font-weight:600}" +
  "input{box-sizing:border-box;width:100%;padding:.6rem;font-size:1rem;border:1px solid #64748b;" +
  "border-radius:.4rem}" +
  "button{margin-top:1rem;width:100%;padding:.7rem;font-size:1rem;border:0;border-radius:.4rem;" +
  "background:#004a99;color:#fff}button.secondary{background:#e2e8f0;color:#0f172a}" +
  ".amount{font-size:1.5rem;font-weight:700}.error{color:#9f1239}";
const PAGE_STYLE_HASH = createHash("sha256").update(PAGE_STYLE).digest("base64");
const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

/** The page's Content-Security-Policy: nothing but its own stylesheet (no script at all). */
export const CMI_PAGE_CSP =
  `default-src 'none'; style-src 'sha256-${PAGE_STYLE_HASH}'; ` + "base-uri 'none'; frame-ancestors 'none'";

interface CmiPageText {
  title: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
  pay: string;
  cancel: string;
  /** The amount's label with its colon, as the language writes it ("Montant :" in French). */
  amount: string;
  badCard: string;
  badExpiry: string;
  badCvc: string;
  refused: string;
  approved: string;
  declined: string;
  back: string;
}

/** The simulated CMI page's words in the order's language (CMI serves fr, en and ar). */
export function cmiPageText(language: string): CmiPageText {
  switch (language) {
    case "ar":
      return {
        title: "الدفع عبر المركز النقدي بين البنوك (محاكاة)",
        cardNumber: "رقم البطاقة",
        expiry: "تاريخ انتهاء الصلاحية",
        cvc: "رمز CVC",
        pay: "ادفع",
        cancel: "إلغاء",
        amount: "المبلغ:",
        badCard: "رقم البطاقة غير صالح.",
        badExpiry: "تاريخ الانتهاء غير صالح (MM/YY).",
        badCvc: "رمز CVC غير صالح.",
        refused: "رفض المركز النقدي بين البنوك هذا الطلب",
        approved: "تم قبول الدفع.",
        declined: "لم يتم قبول الدفع.",
        back: "العودة إلى موقع التاجر",
      };
    case "fr":
      return {
        title: "Paiement CMI (simulateur)",
        cardNumber: "Numéro de carte",
        expiry: "Date d'expiration",
        cvc: "CVC",
        pay: "Payer",
        cancel: "Annuler",
        amount: "Montant\u00a0:",
        badCard: "Numéro de carte invalide.",
        badExpiry: "Date d'expiration invalide (MM/AA).",
        badCvc: "CVC invalide.",
        refused: "CMI a refusé cette demande",
        approved: "Paiement accepté.",
        declined: "Paiement refusé.",
        back: "Retour au site marchand",
      };
    default:
      return {
        title: "CMI payment (simulator)",
        cardNumber: "Card number",
        expiry: "Expiry date",
        cvc: "CVC",
        pay: "Pay",
        cancel: "Cancel",
        amount: "Amount:",
        badCard: "The card number is not valid.",
        badExpiry: "The expiry date is not valid (MM/YY).",
        badCvc: "The CVC is not valid.",
        refused: "CMI refused this request",
        approved: "Payment approved.",
        declined: "Payment declined.",
        back: "Back to the merchant's site",
      };
  }
}

const escape = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(language: string, title: string, body: string): string {
  const dir = language === "ar" ? "rtl" : "ltr";
  return `<!doctype html>
<html lang="${escape(language)}" dir="${dir}"><head><meta charset="utf-8">${VIEWPORT}
<title>${escape(title)}</title>
<style>${PAGE_STYLE}</style>
</head><body><h1>${escape(title)}</h1>
${body}
</body></html>`;
}

/**
 * CMI's hosted payment page as the sandbox shows it: the amount, "Card number", "Expiry date",
 * "CVC", a Pay button and Cancel (contract 15). Plain HTML forms, no script.
 */
export function cmiPaymentPage(options: { language: string; action: string; amount: string; error?: string }): string {
  const text = cmiPageText(options.language);
  const action = escape(options.action);
  const field = (name: string, label: string, extra: string) =>
    `<label for="${name}">${escape(label)}</label><input id="${name}" name="${name}" ${extra} required>`;
  return page(
    options.language,
    text.title,
    `<p>${escape(text.amount)} <bdi class="amount">${escape(options.amount)}</bdi></p>
<form method="post" action="${action}" novalidate>
${options.error ? `<p role="alert" class="error">${escape(options.error)}</p>` : ""}
${field("cardNumber", text.cardNumber, 'inputmode="numeric" autocomplete="cc-number" maxlength="23"')}
${field("expiry", text.expiry, 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7"')}
${field("cvc", text.cvc, 'inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}
<button name="action" value="pay">${escape(`${text.pay} ${options.amount}`)}</button>
</form>
<form method="post" action="${action}">` +
      `<button name="action" value="cancel" formnovalidate class="secondary">` +
      `${escape(text.cancel)}</button></form>`,
  );
}

/** What the gate answers a form it refuses (a wrong hash, an unknown store, an order already processed). */
export function cmiErrorPage(language: string, reason: string): string {
  const text = cmiPageText(language);
  return page(language, text.title, `<p role="alert" class="error">${escape(text.refused)}: ${escape(reason)}</p>`);
}

/** After an attempt: CMI's answer fields posted with the buyer to okUrl or failUrl by a plain form (no script). */
export function cmiReturnPage(options: { language: string; action: string; fields: Record<string, string> }): string {
  const text = cmiPageText(options.language);
  const hidden = Object.entries(options.fields)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join("");
  return page(
    options.language,
    text.title,
    `<p role="status">${escape(options.fields.ProcReturnCode === "00" ? text.approved : text.declined)}</p>
<form method="post" action="${escape(options.action)}">${hidden}<button>${escape(text.back)}</button></form>`,
  );
}
