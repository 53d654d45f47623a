// The OTP page's resend countdown (markup: app/[locale]/pay/otp/[paymentId]/resend-button.tsx).
// Rendered on the server the button is enabled and says how long to wait (without script the
// server holds to the cooldown and says "too soon"); once this runs it counts down and keeps
// the button disabled until a new code may be asked for.
import { markIslandReady, readIslandConfig } from "./runtime";

export interface ResendCountdownConfig {
  /** Index n: the help text with n seconds left (0: a new code may be asked for). */
  helpBySecondsLeft: string[];
}

const NAME = "resend-countdown";
const { helpBySecondsLeft } = readIslandConfig<ResendCountdownConfig>(NAME);
const help = document.getElementById("otp-resend-help");
const button = document.getElementById("otp-resend-button") as HTMLButtonElement | null;

const seconds = helpBySecondsLeft.length - 1;
const deadline = Date.now() + seconds * 1000;
const show = (left: number) => {
  const text = helpBySecondsLeft[left];
  if (help && text !== undefined && help.textContent !== text) help.textContent = text;
  if (button) button.disabled = left > 0;
};
show(seconds);
if (seconds > 0) {
  const timer = setInterval(() => {
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    show(left);
    if (left === 0) clearInterval(timer);
  }, 250);
}
markIslandReady(NAME);
