"use client";

import { useEffect, useState } from "react";
import { StatusBanner, type StatusTone } from "@/components/status-banner";
import { POLL_FIRST_DELAY_MS, POLL_MAX_DELAY_MS } from "@/lib/hosted/hosted-timing";

const POLL_GROWTH = 1.5;
/** Long enough for a screen reader to announce the outcome before the page moves on. */
export const MOVE_DELAY_MS = 1_500;

interface Ended {
  statusCode: number;
  expired: boolean;
}

export interface QrStatusLabels {
  waiting: string;
  successful: string;
  authorized: string;
  failed: string;
  expired: string;
  finished: string;
  moving: string;
}

/**
 * The QR page's status line. It polls the payment's status with a growing delay (and at once
 * when the tab comes back to the front), says how the payment ended as soon as it does, and
 * then moves to the return page.
 */
export function QrStatus({ statusPath, returnPath, labels }: { statusPath: string; returnPath: string; labels: QrStatusLabels }) {
  const [ended, setEnded] = useState<Ended | null>(null);

  useEffect(() => {
    let delay = POLL_FIRST_DELAY_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let polling = false;
    let done = false;

    const schedule = (ms: number) => {
      clearTimeout(timer);
      if (!done) timer = setTimeout(poll, ms);
    };
    async function poll() {
      if (polling || done) return;
      polling = true;
      let wait = delay;
      try {
        const response = await fetch(statusPath, { cache: "no-store", headers: { accept: "application/json" } });
        if (response.ok) {
          const { data } = (await response.json()) as { data: Ended };
          if (data.statusCode !== 1) {
            done = true;
            setEnded({ statusCode: data.statusCode, expired: data.expired });
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

    const onVisible = () => {
      if (document.visibilityState !== "visible") return;
      delay = POLL_FIRST_DELAY_MS;
      schedule(0);
    };
    schedule(delay);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      done = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [statusPath]);

  useEffect(() => {
    if (!ended) return;
    const timer = setTimeout(() => window.location.assign(returnPath), MOVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ended, returnPath]);

  const { tone, text } = describe(ended, labels);
  return (
    <StatusBanner tone={tone} role="status">
      <p className="font-semibold">{text}</p>
      {ended ? <p>{labels.moving}</p> : null}
    </StatusBanner>
  );
}

function describe(ended: Ended | null, labels: QrStatusLabels): { tone: StatusTone; text: string } {
  if (!ended) return { tone: "info", text: labels.waiting };
  switch (ended.statusCode) {
    case 2:
      return { tone: "success", text: labels.successful };
    case 13:
      return { tone: "success", text: labels.authorized };
    case 3:
      return { tone: "error", text: ended.expired ? labels.expired : labels.failed };
    default:
      return { tone: "info", text: labels.finished };
  }
}
