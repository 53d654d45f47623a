import { z } from "zod";

export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\+[0-9]{8,15}$/, "must be in international E.164 format, e.g. +213555123456");

export const createCustomerBody = z.object({
  name: z.string().trim().min(1).max(200),
  phone: phoneSchema,
  email: z.email().max(254).optional(),
  isActive: z.boolean().optional().default(true),
});

export type CreateCustomerBody = z.output<typeof createCustomerBody>;

/** Response shape of create (contract section 3); get, search and update add timestamps. */
export interface CustomerView {
  id: string;
  name: string;
  email: string | null;
  phone: string;
  isActive: boolean;
}

export interface CustomerDetailView extends CustomerView {
  createdAt: string;
  updatedAt: string;
}
