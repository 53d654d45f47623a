import { Button, ButtonLink } from "@/components/button";
import { Island } from "@/components/island";
import type { ReturnRedirectConfig } from "@/components/islands/return-redirect";

/**
 * Sends the buyer on after a short pause, with a link to go at once and a way to stay
 * (a buyer reading slowly, or with a screen reader, must be able to stop the move).
 * "Stay" is a GET form to this page with `stay=1`: before the return-redirect island runs (or
 * without script) the browser reloads the page staying; with it, it stays without a reload.
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
  const config: ReturnRedirectConfig = { href, staying: initiallyStaying, stayed: labels.stayed };
  return (
    <div className="flex flex-col gap-3">
      <p role="status" id="return-redirect-status" className="text-center text-sm text-slate-700">
        {initiallyStaying ? labels.stayed : labels.redirecting}
      </p>
      <ButtonLink href={href}>{labels.continue}</ButtonLink>
      {initiallyStaying ? null : (
        <form method="get" id="return-redirect-stay">
          {Object.entries(stayQuery).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="stay" value="1" />
          <Button type="submit" variant="quiet">
            {labels.stay}
          </Button>
        </form>
      )}
      <Island name="return-redirect" config={config} />
    </div>
  );
}
