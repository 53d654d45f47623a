import { createHash } from "node:crypto";

const PAGE_STYLE =
  "body{font-family:system-ui,sans-serif;max-width:26rem;margin:0 auto;padding:1rem;color:#0f172a}" +
  "label{display:block;margin-top:.75rem;font-weight:600}" +
  "fieldset{border:1px solid #64748b;border-radius:.4rem;margin-top:.75rem}" +
  "fieldset label{display:inline;font-weight:400;margin:0 .75rem}" +
  "input[type=text]{box-sizing:border-box;width:100%;padding:.6rem;font-size:1rem;" +
  "border:1px solid #64748b;border-radius:.4rem}" +
  "button{margin-top:1rem;width:100%;padding:.7rem;font-size:1rem;border:0;border-radius:.4rem;" +
  "background:#6d28d9;color:#fff}button.secondary{background:#e2e8f0;color:#0f172a}" +
  ".amount{font-size:1.5rem;font-weight:700}.error{color:#9f1239}";
const PAGE_STYLE_HASH = createHash("sha256").update(PAGE_STYLE).digest("base64");
const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

/** The page's Content-Security-Policy: nothing but its own stylesheet (no script at all). */
export const CHARGILY_PAGE_CSP =
  `default-src 'none'; style-src 'sha256-${PAGE_STYLE_HASH}'; ` + "base-uri 'none'; frame-ancestors 'none'";

/** The words of the simulated Chargily Pay checkout, in the checkout's locale. */
export interface ChargilyPageText {
  title: string;
  card: string;
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
}

const escape = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Chargily Pay's hosted checkout as the sandbox shows it: the amount, the card (EDAHABIA or
 * CIB), "Card number", "Expiry date", "CVC", a Pay button and Cancel (contract 15). Plain HTML
 * forms, no script, so it works without JavaScript.
 */
export function chargilyPaymentPage(options: {
  text: ChargilyPageText;
  amount: string;
  locale: string;
  error?: string;
}): string {
  const { text, amount, locale, error } = options;
  const dir = locale === "ar" ? "rtl" : "ltr";
  const field = (name: string, label: string, extra: string) =>
    `<label for="${name}">${escape(label)}</label><input type="text" id="${name}" name="${name}" ${extra} required>`;
  return (
    `<!doctype html>
<html lang="${escape(locale)}" dir="${dir}"><head><meta charset="utf-8">${VIEWPORT}
<title>${escape(text.title)}</title>
<style>${PAGE_STYLE}</style>
</head><body><h1>${escape(text.title)}</h1><p>${escape(text.amount)} <bdi class="amount">${escape(amount)}</bdi></p>
<form method="post" novalidate>
${error ? `<p role="alert" class="error">${escape(error)}</p>` : ""}
<fieldset><legend>${escape(text.card)}</legend>
<input type="radio" id="edahabia" name="paymentMethod" value="edahabia" checked><label for="edahabia">EDAHABIA</label>
<input type="radio" id="cib" name="paymentMethod" value="cib"><label for="cib">CIB</label>
</fieldset>
${field("cardNumber", text.cardNumber, 'inputmode="numeric" autocomplete="cc-number" maxlength="23"')}
${field("expiry", text.expiry, 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7"')}
${field("cvc", text.cvc, 'inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}
<button name="action" value="pay">${escape(`${text.pay} ${amount}`)}</button>
</form>
<form method="post"><button name="action" value="cancel" formnovalidate class="secondary">` +
    `${escape(text.cancel)}</button></form>
</body></html>`
  );
}

export function chargilyPageText(locale: string): ChargilyPageText {
  switch (locale) {
    case "ar":
      return {
        title: "الدفع عبر شارجيلي باي (محاكاة)",
        card: "البطاقة",
        cardNumber: "رقم البطاقة",
        expiry: "تاريخ انتهاء الصلاحية",
        cvc: "رمز CVC",
        pay: "ادفع",
        cancel: "إلغاء",
        amount: "المبلغ:",
        badCard: "رقم البطاقة غير صالح.",
        badExpiry: "تاريخ الانتهاء غير صالح (MM/YY).",
        badCvc: "رمز CVC غير صالح.",
      };
    case "fr":
      return {
        title: "Paiement Chargily Pay (simulateur)",
        card: "Carte",
        cardNumber: "Numéro de carte",
        expiry: "Date d'expiration",
        cvc: "CVC",
        pay: "Payer",
        cancel: "Annuler",
        amount: "Montant\u00a0:",
        badCard: "Numéro de carte invalide.",
        badExpiry: "Date d'expiration invalide (MM/AA).",
        badCvc: "CVC invalide.",
      };
    default:
      return {
        title: "Chargily Pay checkout (simulator)",
        card: "Card",
        cardNumber: "Card number",
        expiry: "Expiry date",
        cvc: "CVC",
        pay: "Pay",
        cancel: "Cancel",
        amount: "Amount:",
        badCard: "The card number is not valid.",
        badExpiry: "The expiry date is not valid (MM/YY).",
        badCvc: "The CVC is not valid.",
      };
  }
}
