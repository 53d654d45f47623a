CREATE TYPE "public"."state_change_cause" AS ENUM('api', 'buyer', 'system', 'console');--> statement-breakpoint
CREATE TABLE "payment_state_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_state_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"payment_id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"from_state" "payment_state",
	"to_state" "payment_state" NOT NULL,
	"cause" "state_change_cause" NOT NULL,
	"console_user_email" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_state_changes_console_email" CHECK (("payment_state_changes"."cause" = 'console') = ("payment_state_changes"."console_user_email" IS NOT NULL))
);
--> statement-breakpoint
DROP INDEX "payments_customer_idx";--> statement-breakpoint
ALTER TABLE "card_payments" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "card_payments" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "payment_state_changes" ADD CONSTRAINT "payment_state_changes_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_state_changes_payment_idx" ON "payment_state_changes" USING btree ("payment_id","at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "customers_service_name_idx" ON "customers" USING btree ("service_id",lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "customers_service_email_idx" ON "customers" USING btree ("service_id",lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payments_customer_created_idx" ON "payments" USING btree ("customer_id","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payments_service_method_created_idx" ON "payments" USING btree ("service_id","transaction_type","payment_method_code","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payments_service_currency_created_idx" ON "payments" USING btree ("service_id","currency","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payments_service_amount_idx" ON "payments" USING btree ("service_id","amount_minor","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "card_payments_last4_idx" ON "card_payments" USING btree ("card_last4","payment_id");--> statement-breakpoint
ALTER TABLE "card_payments" ADD CONSTRAINT "card_payments_last4" CHECK ("card_payments"."card_last4" IS NULL OR "card_payments"."card_last4" ~ '^[0-9]{4}$');