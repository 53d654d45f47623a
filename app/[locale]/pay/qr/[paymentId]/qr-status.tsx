import { Island } from "@/components/island";
import type { QrStatusConfig } from "@/components/islands/qr-status";
import { StatusBanner, type StatusTone } from "@/components/status-banner";

export interface QrStatusLabels {
  waiting: string;
  successful: string;
  authorized: string;
  failed: string;
  expired: string;
  finished: string;
  moving: string;
}

/** How each ending of the payment reads; the qr-status island shows the one the status poll finds. */
const ENDINGS: { ending: Exclude<keyof QrStatusLabels, "waiting" | "moving">; tone: StatusTone }[] = [
  { ending: "successful", tone: "success" },
  { ending: "authorized", tone: "success" },
  { ending: "failed", tone: "error" },
  { ending: "expired", tone: "error" },
  { ending: "finished", tone: "info" },
];

/**
 * The QR page's status line: "waiting" as rendered, then (the qr-status island polls the
 * payment's status) how the payment ended, put into the same live region from the rendered
 * endings below, before the island moves on to the return page.
 */
export function QrStatus({
  statusPath,
  returnPath,
  labels,
}: {
  statusPath: string;
  returnPath: string;
  labels: QrStatusLabels;
}) {
  const config: QrStatusConfig = { statusPath, returnPath };
  return (
    <>
      <StatusBanner tone="info" role="status" id="qr-status">
        <p className="font-semibold">{labels.waiting}</p>
      </StatusBanner>
      {ENDINGS.map(({ ending, tone }) => (
        <template key={ending} data-qr-ending={ending}>
          <StatusBanner tone={tone}>
            <p className="font-semibold">{labels[ending]}</p>
            <p>{labels.moving}</p>
          </StatusBanner>
        </template>
      ))}
      <Island name="qr-status" config={config} />
    </>
  );
}
