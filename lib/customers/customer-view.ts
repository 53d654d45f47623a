import type { customers } from "../db/schema";
import type { CustomerDetailView, CustomerView } from "./customer.schema";

type CustomerRow = typeof customers.$inferSelect;

export function toCustomerView(row: CustomerRow): CustomerView {
  return { id: row.id, name: row.name, email: row.email, phone: row.phone, isActive: row.isActive };
}

export function toCustomerDetailView(row: CustomerRow): CustomerDetailView {
  return { ...toCustomerView(row), createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}
