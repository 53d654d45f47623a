"use client";

import { useEffect, useState } from "react";
import { Button, ButtonLink } from "@/components/button";
import { REDIRECT_DELAY_MS } from "@/lib/hosted/hosted-timing";

/**
 * Sends the buyer on after a short pause, with a link to go at once and a way to stay
 * (a buyer reading slowly, or with a screen reader, must be able to stop the move).
 * "Stay" is a GET form to this page with `stay=1`: before script runs (or without it) the
 * browser reloads the page staying; once hydrated, it stays without a reload.
 */
export function ReturnRedirect({
  href,
  labels,
  stayQuery,
  initiallyStaying,
}: {
  href: string;
  labels: { redirecting: string; continue: string; stay: string; stayed: string };
  /** The page's own query (token, returnUrl), kept by the stay form. */
  stayQuery: Record<string, string>;
  initiallyStaying: boolean;
}) {
  const [staying, setStaying] = useState(initiallyStaying);
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
        <form
          method="get"
          onSubmit={(event) => {
            event.preventDefault();
            setStaying(true);
          }}
        >
          {Object.entries(stayQuery).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="stay" value="1" />
          <Button type="submit" variant="quiet">
            {labels.stay}
          </Button>
        </form>
      )}
    </div>
  );
}
