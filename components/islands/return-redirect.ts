// The return page's timed move (components: app/[locale]/pay/return/[paymentId]/return-redirect.tsx):
// on to the merchant after REDIRECT_DELAY_MS, unless the buyer chose to stay. Without script the
// page's <noscript> meta refresh moves, and "Stay" reloads the page with stay=1.
import { REDIRECT_DELAY_MS } from "../../lib/hosted/hosted-timing";
import { markIslandReady, readIslandConfig } from "./runtime";

export interface ReturnRedirectConfig {
  href: string;
  staying: boolean;
  /** What the status line says once the buyer stays. */
  stayed: string;
}

const NAME = "return-redirect";
const config = readIslandConfig<ReturnRedirectConfig>(NAME);
const status = document.getElementById("return-redirect-status");
const stayForm = document.getElementById("return-redirect-stay");

if (!config.staying) {
  const timer = setTimeout(() => window.location.assign(config.href), REDIRECT_DELAY_MS);
  // Staying needs no reload once the script runs: the move is cancelled where the buyer is.
  stayForm?.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    if (status) status.textContent = config.stayed;
    stayForm.remove();
  });
}
markIslandReady(NAME);
