import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiCredentials, services, tenants } from "../db/schema";

/** Everything but secrets: those were shown once at onboarding. One service's when `serviceId` is given. */
export async function listMerchants(db: Db, serviceId?: string) {
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
    .where(serviceId ? eq(services.id, serviceId) : undefined)
    .orderBy(asc(services.createdAt));
}
