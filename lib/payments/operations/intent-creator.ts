import type { ServiceContext } from "../../auth/principal";
import type { Clock } from "../../clock";
import type { Db } from "../../db/client";
import { intentExpiresAt } from "../core/payment-expiry";
import { insertIntent, type IntentInsert, type IntentInsertResult } from "./insert-intent";

/** What create writes that the body alone decides, and who creates it (the first line of its timeline). */
export type IntentDraft = Omit<IntentInsert, "serviceId" | "expiresAt" | "now">;

/**
 * Who creates an intent: it names the service and writes the row. `serviceCreator` is a service
 * already known (authenticated first, or a payment link's page); lib/api/create-with-client-auth.ts
 * judges client_auth inside the insert's own statement (one round trip). Both follow the rules
 * createPaymentIntent states; a creator only decides how the row is written.
 */
export interface IntentCreator {
  /**
   * Writes `draft` for the creator's service unless that service has not enabled `draft.country`
   * (then `inserted` is null), and answers the service. Throws the creator's refusal (429, 401) first.
   */
  insert(db: Db, draft: IntentDraft): Promise<{ service: ServiceContext; inserted: IntentInsertResult | null }>;
  /** The creator's service, for a request refused before anything is written: the creator's own refusal comes first. */
  service(): Promise<ServiceContext>;
}

/** A known service creates: the insert is a statement of its own, on the service's clock. */
export function serviceCreator(service: ServiceContext, clock: Clock): IntentCreator {
  return {
    async insert(db, draft) {
      if (!service.countries.includes(draft.country)) return { service, inserted: null };
      const now = clock.now();
      return {
        service,
        inserted: await insertIntent(db, { ...draft, serviceId: service.id, expiresAt: intentExpiresAt(now), now }),
      };
    },
    service: async () => service,
  };
}
