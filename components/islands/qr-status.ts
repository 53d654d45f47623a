// The QR page's status line (markup: app/[locale]/pay/qr/[paymentId]/qr-status.tsx). It polls
// the payment's status with a growing delay (and at once when the tab comes back to the front),
// says how the payment ended as soon as it does, and then moves to the return page. Without
// script the page's <noscript> meta refresh reloads it and the server sends a finished payment on.
import { POLL_FIRST_DELAY_MS, POLL_MAX_DELAY_MS, QR_MOVE_DELAY_MS } from "../../lib/hosted/hosted-timing";
import { markIslandReady, readIslandConfig } from "./runtime";

export interface QrStatusConfig {
  statusPath: string;
  returnPath: string;
}

/** Which rendered ending (a <template data-ending> beside the status line) a status shows. */
function endingOf(statusCode: number, expired: boolean): string {
  switch (statusCode) {
    case 2:
      return "successful";
    case 13:
      return "authorized";
    case 3:
      return expired ? "expired" : "failed";
    default:
      return "finished";
  }
}

const POLL_GROWTH = 1.5;
const NAME = "qr-status";
const { statusPath, returnPath } = readIslandConfig<QrStatusConfig>(NAME);
const live = document.getElementById("qr-status");

let delay = POLL_FIRST_DELAY_MS;
let timer: ReturnType<typeof setTimeout> | undefined;
let polling = false;
let done = false;

const schedule = (ms: number) => {
  clearTimeout(timer);
  if (!done) timer = setTimeout(poll, ms);
};

/** Puts the ending's banner into the live region itself (same element: screen readers announce the change). */
function showEnding(ending: string) {
  const template = document.querySelector<HTMLTemplateElement>(`template[data-qr-ending="${ending}"]`);
  const banner = template?.content.firstElementChild;
  if (live && banner) {
    live.className = banner.className;
    live.replaceChildren(...[...banner.childNodes].map((node) => node.cloneNode(true)));
  }
  setTimeout(() => window.location.assign(returnPath), QR_MOVE_DELAY_MS);
}

async function poll() {
  if (polling || done) return;
  polling = true;
  let wait = delay;
  try {
    const response = await fetch(statusPath, { cache: "no-store", headers: { accept: "application/json" } });
    if (response.ok) {
      const { data } = (await response.json()) as { data: { statusCode: number; expired: boolean } };
      if (data.statusCode !== 1) {
        done = true;
        showEnding(endingOf(data.statusCode, data.expired));
        return;
      }
    } else if (response.status === 429) {
      // Rate limited: never ask again before the server says we may.
      wait = Math.max(wait, Number(response.headers.get("retry-after") ?? 0) * 1000);
    }
  } catch {
    // Offline for a moment: the next poll tries again.
  } finally {
    polling = false;
  }
  delay = Math.min(delay * POLL_GROWTH, POLL_MAX_DELAY_MS);
  schedule(wait);
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible") return;
  delay = POLL_FIRST_DELAY_MS;
  schedule(0);
});
schedule(delay);
markIslandReady(NAME);
