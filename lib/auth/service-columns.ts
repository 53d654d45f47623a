import { services } from "../db/schema";

/** The service fields every principal carries (ServiceContext), selected by each auth lookup. */
export const serviceColumns = {
  id: services.id,
  code: services.code,
  name: services.name,
  tenantId: services.tenantId,
  countries: services.countries,
  allowedOrigins: services.allowedOrigins,
  redirectUrl: services.redirectUrl,
  webhookUrl: services.webhookUrl,
  clockOffsetSeconds: services.clockOffsetSeconds,
  cardProviderPublishableKey: services.cardProviderPublishableKey,
};
