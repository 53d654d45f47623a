import { hostname } from "node:os";
import type { Webhook } from "standardwebhooks";
import { getConfig } from "../config";
import { decryptWithKey, getGatewayKey } from "../crypto/gateway-key";
import type { Db } from "../db/client";
import { logger } from "../log";
import { claimDueNotifications, type ClaimedNotification } from "./claim-due-notifications";
import { postWebhook } from "./post-webhook";
import { recordDeliveryResults, type DeliveryResult } from "./record-delivery-results";
import { metrics } from "../metrics/gateway-metrics";
import { retryDelaySeconds } from "./retry-schedule";
import { signWebhook, webhookSigner } from "./sign-webhook";
import { webhookPolicyFor, type WebhookPolicy } from "./webhook-policy";

export interface DeliverOptions {
  /** Deliveries in flight at once in this process. */
  concurrency?: number;
  policy?: WebhookPolicy;
  /** Seconds before each retry; config WEBHOOK_RETRY_SCHEDULE by default. */
  schedule?: readonly number[];
  timeoutMs?: number;
  leaseSeconds?: number;
  /** Stop claiming after this long, so a stop request waits for a bounded pass, not a whole backlog. */
  claimForMs?: number;
  /** True once the process is stopping: claim nothing more (the leases held are finished and given back). */
  stopping?: () => boolean;
}

const DEFAULT_CONCURRENCY = 64;
const DEFAULT_CLAIM_FOR_MS = 5_000;
const WORKER_ID = `${hostname()}:${process.pid}`;
// Results are written in batches of at most this many rows per statement; a batch goes as
// soon as FLUSH_AT results wait, or FLUSH_DELAY_MS after the first of them.
const MAX_RECORD_BATCH = 500;
const FLUSH_AT = 32;
const FLUSH_DELAY_MS = 10;

/**
 * Sends the notifications that are due (claiming for up to `claimForMs`; the job's next tick
 * goes on), then returns how many attempts it made. Claims are topped up as deliveries finish,
 * so one slow receiver holds one slot (at most 10 s), not the whole batch; results are
 * written in group commits while the next deliveries run.
 */
export async function deliverDueNotifications(db: Db, options: DeliverOptions = {}): Promise<number> {
  const config = getConfig();
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const context: AttemptContext = {
    policy: options.policy ?? webhookPolicyFor(config),
    schedule: options.schedule ?? config.WEBHOOK_RETRY_SCHEDULE,
    timeoutMs: options.timeoutMs,
    gatewayKey: await getGatewayKey(db),
    signers: new Map(),
    recorder: new ResultRecorder(db),
  };

  const inFlight = new Set<Promise<void>>();
  const claimUntil = Date.now() + (options.claimForMs ?? DEFAULT_CLAIM_FOR_MS);
  let attempts = 0;
  let mayHaveMore = true;
  try {
    while (mayHaveMore || inFlight.size > 0) {
      if (Date.now() > claimUntil || options.stopping?.()) mayHaveMore = false;
      // Top up once half the slots are free: fewer, fuller claims than one per finished delivery.
      const free = concurrency - inFlight.size;
      if (mayHaveMore && free >= Math.max(1, concurrency / 2)) {
        const claimed = await claimDueNotifications(db, {
          limit: free,
          workerId: WORKER_ID,
          leaseSeconds: options.leaseSeconds,
        });
        mayHaveMore = claimed.length === free;
        for (const item of claimed) {
          const webhookUrl = item.webhookUrl;
          if (webhookUrl === null) {
            metrics.webhookDeliveries.inc({ outcome: "undeliverable" });
            continue;
          }
          attempts += 1;
          const delivery: Promise<void> = attempt({ ...item, webhookUrl }, context).finally(() =>
            inFlight.delete(delivery),
          );
          inFlight.add(delivery);
        }
      }
      if (inFlight.size > 0) await Promise.race(inFlight);
    }
  } finally {
    await Promise.allSettled(inFlight);
    await context.recorder.drain();
  }
  return attempts;
}

interface AttemptContext {
  policy: WebhookPolicy;
  schedule: readonly number[];
  timeoutMs?: number;
  gatewayKey: Buffer;
  signers: Map<string, Webhook>;
  recorder: ResultRecorder;
}

type DeliverableNotification = ClaimedNotification & { webhookUrl: string };

async function attempt(item: DeliverableNotification, context: AttemptContext): Promise<void> {
  const attemptedAt = new Date();
  let outcome: Awaited<ReturnType<typeof postWebhook>>;
  try {
    const headers = signWebhook({ signer: signerFor(item, context), id: item.id, body: item.body, now: attemptedAt });
    outcome = await postWebhook({
      url: item.webhookUrl,
      headers,
      body: item.body,
      policy: context.policy,
      timeoutMs: context.timeoutMs,
    });
  } catch (error) {
    // E.g. a secret that no longer decrypts (gateway key changed): a failed attempt, retried
    // like any other, that must not stop the other deliveries.
    logger.error(
      { err: error, notificationId: item.id, serviceId: item.serviceId },
      "webhook attempt could not be made",
    );
    outcome = { ok: false, responseStatus: null, error: "the gateway could not send the webhook", durationMs: 0 };
  }

  const retryIn = outcome.ok ? null : retryDelaySeconds({ attemptNumber: item.attempt, schedule: context.schedule });
  const result: DeliveryResult = {
    id: item.id,
    attempt: item.attempt,
    outcome: outcome.ok ? "delivered" : retryIn === null ? "abandoned" : "pending",
    retryInSeconds: retryIn,
    responseStatus: outcome.responseStatus,
    error: outcome.error,
    durationMs: outcome.durationMs,
    attemptedAt,
  };
  if (!outcome.ok) {
    const { id: notificationId, serviceId, attempt: attemptNumber } = item;
    logger.warn(
      {
        notificationId,
        serviceId,
        attempt: attemptNumber,
        status: outcome.responseStatus,
        reason: outcome.error,
        next: result.outcome,
      },
      "webhook attempt failed",
    );
  }
  context.recorder.add(result);
}

function signerFor(item: ClaimedNotification, context: AttemptContext): Webhook {
  let signer = context.signers.get(item.webhookSecretEncrypted);
  if (!signer) {
    signer = webhookSigner(decryptWithKey(context.gatewayKey, item.webhookSecretEncrypted));
    context.signers.set(item.webhookSecretEncrypted, signer);
  }
  return signer;
}

/**
 * Writes results in small groups: a result waits at most FLUSH_DELAY_MS for others to join it
 * (on the embedded database each statement blocks the event loop, so without the wait every
 * result would be written alone), and results that finish while a write runs go together in
 * the next one. A failed write is logged; its items stay leased and come due again when the
 * lease ends (at least once, never lost).
 */
class ResultRecorder {
  private buffer: DeliveryResult[] = [];
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Db) {}

  add(result: DeliveryResult) {
    this.buffer.push(result);
    if (this.writing) return; // the running write loop takes it next
    if (this.buffer.length >= FLUSH_AT) this.flushNow();
    else this.timer ??= setTimeout(() => this.flushNow(), FLUSH_DELAY_MS);
  }

  async drain() {
    this.flushNow();
    while (this.writing) await this.writing;
  }

  private flushNow() {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length > 0) this.writing ??= this.writeAll();
  }

  private async writeAll() {
    try {
      while (this.buffer.length > 0) {
        const batch = this.buffer.splice(0, MAX_RECORD_BATCH);
        try {
          await recordDeliveryResults(this.db, { results: batch, workerId: WORKER_ID });
        } catch (error) {
          logger.error({ err: error, count: batch.length }, "webhook results could not be recorded");
        }
      }
    } finally {
      this.writing = null;
    }
  }
}
