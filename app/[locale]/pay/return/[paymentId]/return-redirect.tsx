"use client";

import { useEffect, useState } from "react";
import { Button, ButtonLink } from "@/components/button";
import { REDIRECT_DELAY_MS } from "@/lib/hosted/hosted-timing";

/**
 * Sends the buyer on after a short pause, with a link to go at once and a way to stay
 * (a buyer reading slowly, or with a screen reader, must be able to stop the move).
 */
export function ReturnRedirect({
  href,
  labels,
}: {
  href: string;
  labels: { redirecting: string; continue: string; stay: string; stayed: string };
}) {
  const [staying, setStaying] = useState(false);
  useEffect(() => {
    if (staying) return;
    const timer = setTimeout(() => window.location.assign(href), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [href, staying]);

  return (
    <div className="flex flex-col gap-3">
      <p role="status" className="text-center text-sm text-slate-700">
        {staying ? labels.stayed : labels.redirecting}
      </p>
      <ButtonLink href={href}>{labels.continue}</ButtonLink>
      {staying ? null : (
        <Button variant="quiet" onClick={() => setStaying(true)}>
          {labels.stay}
        </Button>
      )}
    </div>
  );
}
