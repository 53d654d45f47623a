import { idempotencyPurgeJob } from "../idempotency/purge-idempotency-keys";
import { eventPurgeJob } from "../events/purge-events";
import { webhookDeliveryJob } from "../notifications/webhook-delivery-job";
import { paymentJobs } from "../payments/expire-payments";
import "../payments/card-operations";
import { providerReconciliationJob } from "../provider-operations/reconcile-provider-operations";
import { cardProviderEventsJob } from "../providers/card/sandbox-event-delivery";
import { rateLimitSweepJob } from "../rate-limit/sweep-rate-limits";
import type { BackgroundJob } from "./background-jobs";

/** Every periodic job the gateway runs; the server and `npm run worker` start these. */
export const gatewayJobs: BackgroundJob[] = [
  webhookDeliveryJob,
  ...paymentJobs,
  idempotencyPurgeJob,
  rateLimitSweepJob,
  cardProviderEventsJob,
  providerReconciliationJob,
  eventPurgeJob,
];
