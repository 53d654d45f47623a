import type { BackgroundJob } from "../background-job";
import { deliverDueNotifications } from "./deliver-due-notifications";

/**
 * Sends due notifications. Safe in any number of processes on one database: each claims its
 * own rows (SKIP LOCKED) under a lease. Each run drains everything due before it returns.
 */
export const webhookDeliveryJob: BackgroundJob = {
  name: "webhook-delivery",
  intervalMs: 500,
  run: (db, { stopping }) => deliverDueNotifications(db, { stopping }),
};
