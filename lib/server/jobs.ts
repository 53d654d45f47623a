import { idempotencyPurgeJob } from "../idempotency/purge-idempotency-keys";
import { eventPurgeJob } from "../events/purge-events";
import { consolePurgeJob } from "../console/purge-console-records";
import { webhookDeliveryJob } from "../notifications/webhook-delivery-job";
import { paymentJobs } from "../payments/operations/expire-payments";
import { cardPaymentReconciliationJob } from "../payments/operations/reconcile-card-payments";
import { providerReconciliationJob } from "../provider-operation-handlers/reconcile-provider-operations";
import { rateLimitSweepJob } from "../rate-limit/sweep-rate-limits";
import type { BackgroundJob } from "../background-job";
import { sandboxCardEventsJob } from "../../simulators/in-gateway";

/** Every periodic job the gateway runs; the server and `npm run worker` start these. */
export const gatewayJobs: BackgroundJob[] = [
  webhookDeliveryJob,
  ...paymentJobs,
  idempotencyPurgeJob,
  rateLimitSweepJob,
  sandboxCardEventsJob,
  providerReconciliationJob,
  cardPaymentReconciliationJob,
  eventPurgeJob,
  consolePurgeJob,
];
