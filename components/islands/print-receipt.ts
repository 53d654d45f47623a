// The return page's receipt (components/receipt-panel.tsx): shows "Print receipt", which only
// script can do (window.print), and keeps the buyer on the page once they turn to the receipt.
// Without script the button stays hidden; the PDF link and the email form need none.
import { markIslandReady } from "./runtime";

const NAME = "print-receipt";
const button = document.getElementById("print-receipt");
if (button) {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
}
// A buyer busy with the receipt is not sent on to the shop: it presses the page's "Stay" for them.
document.getElementById("receipt-actions")?.addEventListener("focusin", () => {
  const stay = document.getElementById("return-redirect-stay");
  if (stay instanceof HTMLFormElement) stay.requestSubmit();
});
markIslandReady(NAME);
