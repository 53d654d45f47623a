-- The simulators' tables, in their own schema. Every statement may find its object there already:
-- a sandbox database upgraded past the gateway's migration 0014 had its simulator tables moved
-- here, with their rows, before this ran for the first time.
CREATE SCHEMA IF NOT EXISTS "simulators";
--> statement-breakpoint
DO $$ BEGIN CREATE TYPE "simulators"."card_provider_capture_method" AS ENUM('automatic', 'manual'); EXCEPTION WHEN duplicate_object THEN null; END $$;--> statement-breakpoint
DO $$ BEGIN CREATE TYPE "simulators"."card_provider_intent_status" AS ENUM('requires_payment_method', 'requires_action', 'requires_capture', 'succeeded', 'canceled'); EXCEPTION WHEN duplicate_object THEN null; END $$;--> statement-breakpoint
DO $$ BEGIN CREATE TYPE "simulators"."wallet_entry_kind" AS ENUM('opening', 'debit', 'hold', 'hold_capture', 'hold_release', 'refund'); EXCEPTION WHEN duplicate_object THEN null; END $$;--> statement-breakpoint
DO $$ BEGIN CREATE TYPE "simulators"."wallet_hold_status" AS ENUM('active', 'captured', 'released'); EXCEPTION WHEN duplicate_object THEN null; END $$;--> statement-breakpoint
DO $$ BEGIN CREATE TYPE "simulators"."wallet_operation_status" AS ENUM('succeeded', 'refused'); EXCEPTION WHEN duplicate_object THEN null; END $$;--> statement-breakpoint
DO $$ BEGIN CREATE TYPE "simulators"."wallet_qr_status" AS ENUM('pending', 'approved', 'declined', 'rejected', 'canceled'); EXCEPTION WHEN duplicate_object THEN null; END $$;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "simulators"."card_provider_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"payment_intent_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "simulators"."card_provider_idempotency_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"operation" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "simulators"."card_provider_payment_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"account_key" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"capture_method" "simulators"."card_provider_capture_method" NOT NULL,
	"status" "simulators"."card_provider_intent_status" DEFAULT 'requires_payment_method' NOT NULL,
	"customer_ref" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"payment_method_id" text,
	"setup_future_usage" boolean DEFAULT false NOT NULL,
	"amount_capturable_minor" bigint DEFAULT 0 NOT NULL,
	"amount_received_minor" bigint DEFAULT 0 NOT NULL,
	"amount_refunded_minor" bigint DEFAULT 0 NOT NULL,
	"last_error_code" text,
	"return_url" text,
	"locale" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_provider_payment_intents_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "card_provider_pi_amount_positive" CHECK ("simulators"."card_provider_payment_intents"."amount_minor" > 0),
	CONSTRAINT "card_provider_pi_amounts" CHECK ("simulators"."card_provider_payment_intents"."amount_capturable_minor" >= 0 AND "simulators"."card_provider_payment_intents"."amount_capturable_minor" <= "simulators"."card_provider_payment_intents"."amount_minor"
        AND "simulators"."card_provider_payment_intents"."amount_received_minor" >= 0 AND "simulators"."card_provider_payment_intents"."amount_received_minor" <= "simulators"."card_provider_payment_intents"."amount_minor"
        AND "simulators"."card_provider_payment_intents"."amount_refunded_minor" >= 0 AND "simulators"."card_provider_payment_intents"."amount_refunded_minor" <= "simulators"."card_provider_payment_intents"."amount_received_minor")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "simulators"."card_provider_payment_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"account_key" text NOT NULL,
	"customer_ref" text,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"fingerprint" text NOT NULL,
	"test_behavior" text DEFAULT 'succeed' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detached_at" timestamp with time zone,
	CONSTRAINT "card_provider_pm_last4" CHECK ("simulators"."card_provider_payment_methods"."last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "card_provider_pm_exp" CHECK ("simulators"."card_provider_payment_methods"."exp_month" BETWEEN 1 AND 12 AND "simulators"."card_provider_payment_methods"."exp_year" BETWEEN 2000 AND 2199)
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "simulators"."card_provider_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_intent_id" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_provider_refund_positive" CHECK ("simulators"."card_provider_refunds"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "simulators"."otp_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"code_salt" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts_left" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"resend_available_at" timestamp with time zone NOT NULL,
	"sent_count" integer DEFAULT 1 NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "otp_challenges_payment_id_unique" UNIQUE("payment_id"),
	CONSTRAINT "otp_challenges_attempts" CHECK ("simulators"."otp_challenges"."attempts_left" >= 0)
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "simulators"."wallet_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"balance_minor" bigint NOT NULL,
	"held_minor" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_accounts_owner_unique" UNIQUE("service_id","customer_id","currency"),
	CONSTRAINT "wallet_accounts_held_within_balance" CHECK ("simulators"."wallet_accounts"."held_minor" >= 0 AND "simulators"."wallet_accounts"."held_minor" <= "simulators"."wallet_accounts"."balance_minor")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "simulators"."wallet_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"payment_id" uuid,
	"kind" "simulators"."wallet_entry_kind" NOT NULL,
	"balance_delta_minor" bigint DEFAULT 0 NOT NULL,
	"held_delta_minor" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "simulators"."wallet_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"captured_minor" bigint DEFAULT 0 NOT NULL,
	"status" "simulators"."wallet_hold_status" DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "wallet_holds_payment_id_unique" UNIQUE("payment_id"),
	CONSTRAINT "wallet_holds_amounts" CHECK ("simulators"."wallet_holds"."amount_minor" > 0 AND "simulators"."wallet_holds"."captured_minor" >= 0 AND "simulators"."wallet_holds"."captured_minor" <= "simulators"."wallet_holds"."amount_minor")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "simulators"."wallet_operations" (
	"operation_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"request_hash" text NOT NULL,
	"payment_id" uuid NOT NULL,
	"status" "simulators"."wallet_operation_status" NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "simulators"."wallet_qr_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"order_id" text NOT NULL,
	"status" "simulators"."wallet_qr_status" DEFAULT 'pending' NOT NULL,
	"approval_code" text,
	"created_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"operation_id" text,
	"service_id" uuid,
	"customer_id" uuid,
	"currency" text,
	"amount_minor" bigint,
	"capture_method" text,
	"callback_url" text,
	"reference" text,
	CONSTRAINT "wallet_qr_requests_payment_id_unique" UNIQUE("payment_id"),
	CONSTRAINT "wallet_qr_requests_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "wallet_qr_requests_operation_id_unique" UNIQUE("operation_id"),
	CONSTRAINT "wallet_qr_requests_approval_code" CHECK (("simulators"."wallet_qr_requests"."status" = 'approved') = ("simulators"."wallet_qr_requests"."approval_code" IS NOT NULL)),
	CONSTRAINT "wallet_qr_requests_answered" CHECK (("simulators"."wallet_qr_requests"."status" = 'pending') = ("simulators"."wallet_qr_requests"."answered_at" IS NULL))
);
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "simulators"."card_provider_events" ADD CONSTRAINT "card_provider_events_payment_intent_id_card_provider_payment_intents_id_fk" FOREIGN KEY ("payment_intent_id") REFERENCES "simulators"."card_provider_payment_intents"("id") ON DELETE no action ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN null; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "simulators"."card_provider_payment_intents" ADD CONSTRAINT "card_provider_payment_intents_payment_method_id_card_provider_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "simulators"."card_provider_payment_methods"("id") ON DELETE no action ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN null; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "simulators"."card_provider_refunds" ADD CONSTRAINT "card_provider_refunds_payment_intent_id_card_provider_payment_intents_id_fk" FOREIGN KEY ("payment_intent_id") REFERENCES "simulators"."card_provider_payment_intents"("id") ON DELETE no action ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN null; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "simulators"."wallet_entries" ADD CONSTRAINT "wallet_entries_account_id_wallet_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "simulators"."wallet_accounts"("id") ON DELETE no action ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN null; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "simulators"."wallet_holds" ADD CONSTRAINT "wallet_holds_account_id_wallet_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "simulators"."wallet_accounts"("id") ON DELETE no action ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN null; END $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "card_provider_events_pending_idx" ON "simulators"."card_provider_events" USING btree ("created_at") WHERE "simulators"."card_provider_events"."delivered_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "card_provider_pm_customer_idx" ON "simulators"."card_provider_payment_methods" USING btree ("customer_ref");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "card_provider_refunds_pi_idx" ON "simulators"."card_provider_refunds" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "wallet_entries_account_idx" ON "simulators"."wallet_entries" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "wallet_entries_payment_idx" ON "simulators"."wallet_entries" USING btree ("payment_id");