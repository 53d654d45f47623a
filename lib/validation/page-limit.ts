import { z } from "zod";

const message = "must be a whole number from 1 to 100";

/** `limit` of a list endpoint (events, payment links): 1 to 100, default 20. */
export function pageLimit(items: string) {
  return z.coerce
    .number({ error: message })
    .int(message)
    .min(1, message)
    .max(100, message)
    .default(20)
    .meta({ description: `${items} per page, 1 to 100.` });
}
