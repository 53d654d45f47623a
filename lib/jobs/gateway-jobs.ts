import { idempotencyPurgeJob } from "../idempotency/purge-idempotency-keys";
import { eventPurgeJob } from "../events/purge-events";
import { consolePurgeJob } from "../console/access/purge-console-records";
import { webhookDeliveryJob } from "../notifications/webhook-delivery-job";
import { paymentJobs } from "../payments/operations/expire-payments";
import { cardPaymentReconciliationJob } from "../payment-methods/registry/method-entry-points";
import { redirectPaymentReconciliationJob } from "../payments/operations/reconcile-redirect-payments";
import { providerReconciliationJob } from "../provider-operation-registry/reconcile-provider-operations";
import { rateLimitSweepJob } from "../rate-limit/sweep-rate-limits";
import type { BackgroundJob } from "../background-job";
import { getConfig } from "../config";
import { backlogMetricsJob, ledgerAuditJob } from "./observability-jobs";
import { simulatorMount } from "../providers/simulator-mount";

/**
 * The in-process card simulator's retry of events the gateway did not take; nothing outside the sandbox (no
 * simulator there).
 */
const sandboxCardEventsJob: BackgroundJob = {
  name: "card-provider.redeliver-events",
  intervalMs: 5_000,
  run: (db) => (getConfig().isSandbox ? simulatorMount().card.redeliverEvents(db) : Promise.resolve(0)),
};

/** Every periodic job the gateway runs; the server and `npm run worker` start these. */
export const gatewayJobs: BackgroundJob[] = [
  webhookDeliveryJob,
  ...paymentJobs,
  idempotencyPurgeJob,
  rateLimitSweepJob,
  sandboxCardEventsJob,
  providerReconciliationJob,
  cardPaymentReconciliationJob,
  redirectPaymentReconciliationJob,
  eventPurgeJob,
  consolePurgeJob,
  backlogMetricsJob,
  ledgerAuditJob,
];
