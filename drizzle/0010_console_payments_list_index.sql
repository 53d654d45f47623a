-- The console's payments list, filters, keyset pages and export (lib/console-payments): one
-- service's payments newest first (read backwards), ties on the time broken by the id, with the
-- filters' columns included so a filtered page is judged in the index instead of row by row.
CREATE INDEX IF NOT EXISTS "payments_service_created_idx" ON "payments" USING btree ("service_id", "created_at", "id")
  INCLUDE ("state", "currency", "amount_minor", "payment_method_code", "transaction_type");--> statement-breakpoint
-- One status (or a few), with the other filters' columns included: a status the merchant rarely
-- sees walks its own range, and the other filters are judged in the index there too.
CREATE INDEX IF NOT EXISTS "payments_service_state_created_idx" ON "payments" USING btree ("service_id", "state", "created_at", "id")
  INCLUDE ("currency", "amount_minor", "payment_method_code", "transaction_type");
