import { idempotencyPurgeJob } from "../idempotency/purge-idempotency-keys";
import { eventPurgeJob } from "../events/purge-events";
import { consolePurgeJob } from "../console/purge-console-records";
import { webhookDeliveryJob } from "../notifications/webhook-delivery-job";
import { paymentJobs } from "../payments/operations/expire-payments";
import { cardPaymentReconciliationJob } from "../payments/operations/reconcile-card-payments";
import { providerReconciliationJob } from "../provider-operation-handlers/reconcile-provider-operations";
import { cardProviderEventsJob } from "../../simulators/card/sandbox-event-delivery";
import { rateLimitSweepJob } from "../rate-limit/sweep-rate-limits";
import type { BackgroundJob } from "../background-job";

/** Every periodic job the gateway runs; the server and `npm run worker` start these. */
export const gatewayJobs: BackgroundJob[] = [
  webhookDeliveryJob,
  ...paymentJobs,
  idempotencyPurgeJob,
  rateLimitSweepJob,
  cardProviderEventsJob,
  providerReconciliationJob,
  cardPaymentReconciliationJob,
  eventPurgeJob,
  consolePurgeJob,
];
