import { Button } from "@/components/button";
import { Island } from "@/components/island";
import type { ResendCountdownConfig } from "@/components/islands/resend-countdown";

/**
 * The resend button and its countdown. Rendered on the server it is enabled and says how long
 * to wait (without script the server holds to the cooldown and says "too soon"); the
 * resend-countdown island counts down and keeps it disabled until a new code may be asked for.
 */
export function ResendButton({ label, helpBySecondsLeft }: { label: string; helpBySecondsLeft: string[] }) {
  const config: ResendCountdownConfig = { helpBySecondsLeft };
  return (
    <>
      <p className="mb-3 text-sm text-slate-700" id="otp-resend-help">
        {helpBySecondsLeft[helpBySecondsLeft.length - 1]}
      </p>
      <Button type="submit" variant="secondary" id="otp-resend-button" aria-describedby="otp-resend-help">
        {label}
      </Button>
      <Island name="resend-countdown" config={config} />
    </>
  );
}
