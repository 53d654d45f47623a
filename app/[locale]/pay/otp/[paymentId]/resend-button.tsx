"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/button";

/**
 * The resend button and its countdown. Rendered on the server it is enabled and says how long
 * to wait (without script the server holds to the cooldown and says "too soon"); once the
 * script runs it counts down and stays disabled until a new code may be asked for.
 */
export function ResendButton({ label, helpBySecondsLeft }: { label: string; helpBySecondsLeft: string[] }) {
  const seconds = helpBySecondsLeft.length - 1;
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    const deadline = Date.now() + seconds * 1000;
    setLeft(seconds);
    if (seconds <= 0) return;
    const timer = setInterval(() => {
      const remaining = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setLeft(remaining);
      if (remaining === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [seconds]);

  return (
    <>
      <p className="mb-3 text-sm text-slate-700" id="otp-resend-help">
        {helpBySecondsLeft[left ?? seconds]}
      </p>
      <Button type="submit" variant="secondary" disabled={left !== null && left > 0} aria-describedby="otp-resend-help">
        {label}
      </Button>
    </>
  );
}
