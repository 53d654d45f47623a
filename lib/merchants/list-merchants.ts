import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiCredentials, services, tenants } from "../db/schema";

/** Everything but secrets: those were shown once at onboarding. */
export async function listMerchants(db: Db) {
  return db
    .select({
      name: services.name,
      tenant: tenants.code,
      service: services.code,
      countries: services.countries,
      clientId: apiCredentials.clientId,
      publishableKey: apiCredentials.publishableKey,
      redirectUrl: services.redirectUrl,
      webhookUrl: services.webhookUrl,
      allowedOrigins: services.allowedOrigins,
      createdAt: services.createdAt,
    })
    .from(services)
    .innerJoin(tenants, eq(tenants.id, services.tenantId))
    .innerJoin(apiCredentials, eq(apiCredentials.serviceId, services.id))
    .orderBy(asc(services.createdAt));
}
