/** The words of the simulated SATIM page, in the order's language. */
export interface SatimPageText {
  title: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
  pay: string;
  cancel: string;
  /** The amount's label with its colon, as the language writes it ("Montant :" in French). */
  amount: string;
  challenge: string;
  complete: string;
  fail: string;
  badCard: string;
  badExpiry: string;
  badCvc: string;
}

import { createHash } from "node:crypto";

const PAGE_STYLE =
  "body{font-family:system-ui,sans-serif;max-width:26rem;margin:0 auto;padding:1rem;color:#0f172a}" +
  "label{display:block;margin-top:.75rem;font-weight:600}" +
  "input{box-sizing:border-box;width:100%;padding:.6rem;font-size:1rem;border:1px solid #64748b;" +
  "border-radius:.4rem}" +
  "button{margin-top:1rem;width:100%;padding:.7rem;font-size:1rem;border:0;border-radius:.4rem;" +
  "background:#065f46;color:#fff}button.secondary{background:#e2e8f0;color:#0f172a}" +
  ".amount{font-size:1.5rem;font-weight:700}.error{color:#9f1239}";
const PAGE_STYLE_HASH = createHash("sha256").update(PAGE_STYLE).digest("base64");
const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

/** The page's Content-Security-Policy: nothing but its own stylesheet (no script at all). */
export const SATIM_PAGE_CSP =
  `default-src 'none'; style-src 'sha256-${PAGE_STYLE_HASH}'; ` + "base-uri 'none'; frame-ancestors 'none'";

const escape = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * SATIM's payment page as the sandbox shows it: the amount, "Card number", "Expiry date",
 * "CVC", a Pay button and Cancel (contract 15); for the 3DS test card, a challenge with
 * Complete and Fail. Plain HTML forms, no script, so it works without JavaScript.
 */
export function satimPaymentPage(options: {
  text: SatimPageText;
  order: string;
  amount: string;
  language: string;
  mode: "card" | "challenge";
  error?: string;
}): string {
  const { text, order, amount, language, mode, error } = options;
  const dir = language === "ar" ? "rtl" : "ltr";
  const action = `?mdOrder=${encodeURIComponent(order)}`;
  const field = (name: string, label: string, extra: string) =>
    `<label for="${name}">${escape(label)}</label><input id="${name}" name="${name}" ${extra} required>`;
  const body =
    mode === "challenge"
      ? `<h2>${escape(text.challenge)}</h2>
<form method="post" action="${action}">` +
        `<button name="action" value="complete">${escape(text.complete)}</button> ` +
        `<button name="action" value="fail" class="secondary">${escape(text.fail)}</button></form>`
      : `<form method="post" action="${action}" novalidate>
${error ? `<p role="alert" class="error">${escape(error)}</p>` : ""}
${field("cardNumber", text.cardNumber, 'inputmode="numeric" autocomplete="cc-number" maxlength="23"')}
${field("expiry", text.expiry, 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7"')}
${field("cvc", text.cvc, 'inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}
<button name="action" value="pay">${escape(`${text.pay} ${amount}`)}</button>
</form>
<form method="post" action="${action}">` +
        `<button name="action" value="cancel" formnovalidate class="secondary">` +
        `${escape(text.cancel)}</button></form>`;
  return `<!doctype html>
<html lang="${escape(language)}" dir="${dir}"><head><meta charset="utf-8">${VIEWPORT}
<title>${escape(text.title)}</title>
<style>${PAGE_STYLE}</style>
</head><body><h1>${escape(text.title)}</h1><p>${escape(text.amount)} <bdi class="amount">${escape(amount)}</bdi></p>
${body}
</body></html>`;
}
