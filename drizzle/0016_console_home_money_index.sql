-- The console home (lib/console-home/get-home-figures.ts): a service's payments of a day, with
-- what the home sums (state, currency, method, captured and refunded money), read from the index
-- alone. Measured on the million-payment set (half of it one merchant's): the home's 30 days
-- took 330 ms reading the rows through payments_service_created_idx, 70 ms from this index.
CREATE INDEX IF NOT EXISTS "payments_service_created_money_idx" ON "payments" USING btree ("service_id", "created_at")
  INCLUDE ("state", "currency", "payment_method_code", "transaction_type", "captured_minor", "refunded_minor");
--> statement-breakpoint
-- The home's failing webhooks: a service's notifications given up or being retried. Few, so a
-- partial index; through notifications_service_idx the home read every notification of the
-- week's rows to find them (14,000 rows, 100 ms, on the same set; 5 ms with this index).
CREATE INDEX IF NOT EXISTS "notifications_failing_idx" ON "notifications" USING btree ("service_id", "created_at")
  WHERE "status" = 'abandoned' OR ("status" = 'pending' AND "attempt_count" > 0);
