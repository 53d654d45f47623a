import { z } from "zod";

export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\+[0-9]{8,15}$/, "must be in international E.164 format, e.g. +213555123456");

const nameSchema = z.string().trim().min(1).max(200);
const emailSchema = z.email().max(254);

export const createCustomerBody = z.object({
  name: nameSchema,
  phone: phoneSchema,
  email: emailSchema.optional(),
  isActive: z.boolean().optional().default(true),
});

export type CreateCustomerBody = z.output<typeof createCustomerBody>;

/** PUT: every field optional; `email: null` clears the address, `isActive: false` deactivates. */
export const updateCustomerBody = z.object({
  name: nameSchema.optional(),
  phone: phoneSchema.optional(),
  email: emailSchema.nullable().optional(),
  isActive: z.boolean().optional(),
});

export type UpdateCustomerBody = z.output<typeof updateCustomerBody>;

/**
 * The `:phone` of the search path. A `+` reaches us as `+`, as `%2B`, or as a space when a
 * client form-encoded it; all three name the same customer.
 */
export const phonePathParam = z
  .string()
  .transform((raw) => {
    let value = raw;
    if (value.includes("%")) {
      try {
        value = decodeURIComponent(value);
      } catch {
        // Not valid percent-encoding: the E.164 check below refuses it.
      }
    }
    return value.replace(/^ (?=[0-9])/, "+");
  })
  .pipe(phoneSchema);

/** Response shape of create (contract section 3); get, search and update add timestamps. */
export const customerView = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().meta({ description: "E.164; the `userId` of payment intents." }),
    isActive: z.boolean(),
  })
  .meta({ id: "Customer" });

export const customerDetailView = customerView
  .extend({ createdAt: z.iso.datetime(), updatedAt: z.iso.datetime() })
  .meta({ id: "CustomerDetail" });

export type CustomerView = z.infer<typeof customerView>;
export type CustomerDetailView = z.infer<typeof customerDetailView>;
