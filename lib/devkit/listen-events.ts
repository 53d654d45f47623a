import { Webhook } from "standardwebhooks";
import type { EventView } from "../events/events.schema";
import type { GatewayApi } from "./gateway-api";

export interface ForwardResult {
  event: EventView;
  status: number | null;
  error?: string;
}

const PAGE = 100;
const MAX_PAGES_PER_POLL = 10;

/**
 * `listen`: polls the Events API and forwards each new event to a local URL, signed with the
 * service's webhook secret exactly as the gateway signs a delivery (Standard Webhooks: same
 * `webhook-id`, a fresh timestamp). Events that existed when listening began are not sent.
 */
export class EventListener {
  private readonly seen = new Set<string>();
  private readonly signer: Webhook;
  private started = false;

  constructor(
    private readonly options: {
      api: GatewayApi;
      forwardTo: string;
      webhookSecret: string;
      onForward?: (result: ForwardResult) => void;
    },
  ) {
    this.signer = new Webhook(options.webhookSecret);
  }

  /** One poll: the new events, oldest first, each forwarded; returns what was forwarded. */
  async poll(): Promise<ForwardResult[]> {
    const fresh: EventView[] = [];
    let startingAfter: string | undefined;
    for (let page = 0; page < MAX_PAGES_PER_POLL; page += 1) {
      const query = new URLSearchParams({ limit: String(PAGE), ...(startingAfter ? { startingAfter } : {}) });
      const { data, envelope } = await this.options.api.call<EventView[]>("GET", `/api/v1/events?${query}`);
      const unseen = data.filter((event) => !this.seen.has(event.id));
      fresh.push(...unseen);
      // Newest first: once a page holds a known event, everything after it was seen before.
      if (!this.started || unseen.length < data.length || envelope.hasMore !== true) break;
      startingAfter = data.at(-1)?.id;
    }
    for (const event of fresh) this.seen.add(event.id);
    if (!this.started) {
      this.started = true;
      return [];
    }
    const results: ForwardResult[] = [];
    for (const event of fresh.reverse()) {
      const result = await this.forward(event);
      this.options.onForward?.(result);
      results.push(result);
    }
    return results;
  }

  private async forward(event: EventView): Promise<ForwardResult> {
    const body = JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt, data: event.data });
    const now = new Date();
    const headers = {
      "content-type": "application/json",
      "webhook-id": event.id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": this.signer.sign(event.id, now, body),
    };
    try {
      const response = await fetch(this.options.forwardTo, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(10_000),
      });
      return { event, status: response.status };
    } catch (error) {
      return { event, status: null, error: (error as Error).message };
    }
  }
}
