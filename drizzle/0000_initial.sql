CREATE TYPE "public"."notification_status" AS ENUM('pending', 'delivered', 'abandoned', 'undeliverable');--> statement-breakpoint
CREATE TYPE "public"."capture_method" AS ENUM('DIRECT', 'RESERVATION');--> statement-breakpoint
CREATE TYPE "public"."payment_state" AS ENUM('CREATED', 'PROCESSING', 'REQUIRES_ACTION', 'PRE_AUTHORIZED', 'SUCCEEDED', 'FAILED', 'CANCELED', 'REFUNDED', 'PARTIALLY_REFUNDED');--> statement-breakpoint
CREATE TYPE "public"."transaction_type" AS ENUM('QR_CODE');--> statement-breakpoint
CREATE TYPE "public"."wallet_entry_kind" AS ENUM('opening', 'debit', 'hold', 'hold_capture', 'hold_release', 'refund');--> statement-breakpoint
CREATE TYPE "public"."wallet_hold_status" AS ENUM('active', 'captured', 'released');--> statement-breakpoint
CREATE TYPE "public"."wallet_qr_status" AS ENUM('pending', 'approved', 'declined', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."idempotency_state" AS ENUM('in_progress', 'completed');--> statement-breakpoint
CREATE TYPE "public"."card_provider_capture_method" AS ENUM('automatic', 'manual');--> statement-breakpoint
CREATE TYPE "public"."card_provider_intent_status" AS ENUM('requires_payment_method', 'requires_action', 'requires_capture', 'succeeded', 'canceled');--> statement-breakpoint
CREATE TYPE "public"."payment_method_archetype" AS ENUM('IN_SDK', 'REDIRECT');--> statement-breakpoint
CREATE TABLE "api_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_hash" text NOT NULL,
	"publishable_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"secret_rotated_at" timestamp with time zone,
	CONSTRAINT "api_credentials_client_id_unique" UNIQUE("client_id"),
	CONSTRAINT "api_credentials_publishable_key_unique" UNIQUE("publishable_key")
);
--> statement-breakpoint
CREATE TABLE "sandbox_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"countries" text[] NOT NULL,
	"redirect_url" text,
	"webhook_url" text,
	"webhook_secret_encrypted" text NOT NULL,
	"allowed_origins" text[] DEFAULT '{}'::text[] NOT NULL,
	"card_provider_publishable_key" text NOT NULL,
	"clock_offset_seconds" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "services_code_unique" UNIQUE("code"),
	CONSTRAINT "services_countries_not_empty" CHECK (cardinality("services"."countries") > 0)
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenants_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "customer_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"family_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"access_token_hash" text NOT NULL,
	"refresh_token_hash" text NOT NULL,
	"access_expires_at" timestamp with time zone NOT NULL,
	"refresh_expires_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_tokens_access_token_hash_unique" UNIQUE("access_token_hash"),
	CONSTRAINT "customer_tokens_refresh_token_hash_unique" UNIQUE("refresh_token_hash")
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_service_phone_unique" UNIQUE("service_id","phone"),
	CONSTRAINT "customers_phone_e164" CHECK ("customers"."phone" ~ '^\+[0-9]{8,15}$')
);
--> statement-breakpoint
CREATE TABLE "notification_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"notification_id" text NOT NULL,
	"attempt_number" integer NOT NULL,
	"response_status" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"worker_id" text,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_attempts_number_positive" CHECK ("notification_attempts"."attempt_number" >= 1)
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"service_id" uuid NOT NULL,
	"payment_id" uuid,
	"type" text NOT NULL,
	"payload" json NOT NULL,
	"status" "notification_status" DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"leased_until" timestamp with time zone,
	"leased_by" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "notifications_attempt_count_not_negative" CHECK ("notifications"."attempt_count" >= 0),
	CONSTRAINT "notifications_delivered_has_time" CHECK (("notifications"."status" = 'delivered') = ("notifications"."delivered_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "payment_captures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"released_minor" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_captures_amount_positive" CHECK ("payment_captures"."amount_minor" > 0 AND "payment_captures"."released_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"description" text NOT NULL,
	"reason" text,
	"provider_reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_refunds_amount_positive" CHECK ("payment_refunds"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"action_id" text NOT NULL,
	"request_fingerprint" text NOT NULL,
	"state" "payment_state" DEFAULT 'CREATED' NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"country" text NOT NULL,
	"capture_method" "capture_method" DEFAULT 'DIRECT' NOT NULL,
	"transaction_type" "transaction_type",
	"payment_method_code" text,
	"captured_minor" bigint DEFAULT 0 NOT NULL,
	"refunded_minor" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'Payment created' NOT NULL,
	"failure_reason" text,
	"platform" text,
	"locale" text,
	"redirect_url" text,
	"provider_reference" text,
	"provider_order_id" text,
	"provider_transaction_id" text,
	"approval_code" text,
	"meta_data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"authorized_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_service_action_unique" UNIQUE("service_id","action_id"),
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_minor" > 0),
	CONSTRAINT "payments_currency_format" CHECK ("payments"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "payments_country_format" CHECK ("payments"."country" ~ '^[A-Z]{3}$'),
	CONSTRAINT "payments_captured_within_amount" CHECK ("payments"."captured_minor" >= 0 AND "payments"."captured_minor" <= "payments"."amount_minor"),
	CONSTRAINT "payments_refunded_within_captured" CHECK ("payments"."refunded_minor" >= 0 AND "payments"."refunded_minor" <= "payments"."captured_minor")
);
--> statement-breakpoint
CREATE TABLE "otp_challenges" (
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
	CONSTRAINT "otp_challenges_attempts" CHECK ("otp_challenges"."attempts_left" >= 0)
);
--> statement-breakpoint
CREATE TABLE "wallet_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"balance_minor" bigint NOT NULL,
	"held_minor" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_accounts_owner_unique" UNIQUE("service_id","customer_id","currency"),
	CONSTRAINT "wallet_accounts_held_within_balance" CHECK ("wallet_accounts"."held_minor" >= 0 AND "wallet_accounts"."held_minor" <= "wallet_accounts"."balance_minor")
);
--> statement-breakpoint
CREATE TABLE "wallet_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"payment_id" uuid,
	"kind" "wallet_entry_kind" NOT NULL,
	"balance_delta_minor" bigint DEFAULT 0 NOT NULL,
	"held_delta_minor" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"captured_minor" bigint DEFAULT 0 NOT NULL,
	"status" "wallet_hold_status" DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "wallet_holds_payment_id_unique" UNIQUE("payment_id"),
	CONSTRAINT "wallet_holds_amounts" CHECK ("wallet_holds"."amount_minor" > 0 AND "wallet_holds"."captured_minor" >= 0 AND "wallet_holds"."captured_minor" <= "wallet_holds"."amount_minor")
);
--> statement-breakpoint
CREATE TABLE "wallet_qr_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"order_id" text NOT NULL,
	"status" "wallet_qr_status" DEFAULT 'pending' NOT NULL,
	"approval_code" text,
	"created_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "wallet_qr_requests_payment_id_unique" UNIQUE("payment_id"),
	CONSTRAINT "wallet_qr_requests_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "wallet_qr_requests_approval_code" CHECK (("wallet_qr_requests"."status" = 'approved') = ("wallet_qr_requests"."approval_code" IS NOT NULL)),
	CONSTRAINT "wallet_qr_requests_answered" CHECK (("wallet_qr_requests"."status" = 'pending') = ("wallet_qr_requests"."answered_at" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"caller_key" text NOT NULL,
	"endpoint" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" "idempotency_state" DEFAULT 'in_progress' NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"locked_until" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_scope_unique" UNIQUE("caller_key","endpoint","key")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"tat_ms" bigint NOT NULL,
	"allowed" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_provider_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"payment_intent_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_provider_payment_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"account_key" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"capture_method" "card_provider_capture_method" NOT NULL,
	"status" "card_provider_intent_status" DEFAULT 'requires_payment_method' NOT NULL,
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
	CONSTRAINT "card_provider_pi_amount_positive" CHECK ("card_provider_payment_intents"."amount_minor" > 0),
	CONSTRAINT "card_provider_pi_amounts" CHECK ("card_provider_payment_intents"."amount_capturable_minor" >= 0 AND "card_provider_payment_intents"."amount_capturable_minor" <= "card_provider_payment_intents"."amount_minor"
        AND "card_provider_payment_intents"."amount_received_minor" >= 0 AND "card_provider_payment_intents"."amount_received_minor" <= "card_provider_payment_intents"."amount_minor"
        AND "card_provider_payment_intents"."amount_refunded_minor" >= 0 AND "card_provider_payment_intents"."amount_refunded_minor" <= "card_provider_payment_intents"."amount_received_minor")
);
--> statement-breakpoint
CREATE TABLE "card_provider_payment_methods" (
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
	CONSTRAINT "card_provider_pm_last4" CHECK ("card_provider_payment_methods"."last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "card_provider_pm_exp" CHECK ("card_provider_payment_methods"."exp_month" BETWEEN 1 AND 12 AND "card_provider_payment_methods"."exp_year" BETWEEN 2000 AND 2199)
);
--> statement-breakpoint
CREATE TABLE "card_provider_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_intent_id" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_provider_refund_positive" CHECK ("card_provider_refunds"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "card_payments" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"provider_intent_id" text NOT NULL,
	"preselected_card_id" uuid,
	"provider_payment_method_id" text,
	"saved_card_id" uuid,
	"finalized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_payments_provider_intent_id_unique" UNIQUE("provider_intent_id")
);
--> statement-breakpoint
CREATE TABLE "saved_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"payment_method_code" text DEFAULT 'CARD_PROVIDER' NOT NULL,
	"provider_payment_method_id" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer,
	"exp_year" integer,
	"fingerprint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "saved_cards_provider_payment_method_id_unique" UNIQUE("provider_payment_method_id"),
	CONSTRAINT "saved_cards_last4" CHECK ("saved_cards"."last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "saved_cards_exp_month" CHECK ("saved_cards"."exp_month" IS NULL OR "saved_cards"."exp_month" BETWEEN 1 AND 12),
	CONSTRAINT "saved_cards_exp_year" CHECK ("saved_cards"."exp_year" IS NULL OR "saved_cards"."exp_year" BETWEEN 2000 AND 2199)
);
--> statement-breakpoint
CREATE TABLE "payment_method_catalog" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"country" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"display_names" jsonb NOT NULL,
	"image_path" text NOT NULL,
	"archetype" "payment_method_archetype",
	"label" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_method_catalog_unique" UNIQUE("service_id","country","code"),
	CONSTRAINT "payment_method_catalog_country" CHECK ("payment_method_catalog"."country" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
ALTER TABLE "api_credentials" ADD CONSTRAINT "api_credentials_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_tokens" ADD CONSTRAINT "customer_tokens_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_tokens" ADD CONSTRAINT "customer_tokens_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_attempts" ADD CONSTRAINT "notification_attempts_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_captures" ADD CONSTRAINT "payment_captures_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD CONSTRAINT "otp_challenges_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_accounts" ADD CONSTRAINT "wallet_accounts_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_accounts" ADD CONSTRAINT "wallet_accounts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_entries" ADD CONSTRAINT "wallet_entries_account_id_wallet_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."wallet_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_entries" ADD CONSTRAINT "wallet_entries_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_holds" ADD CONSTRAINT "wallet_holds_account_id_wallet_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."wallet_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_holds" ADD CONSTRAINT "wallet_holds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_qr_requests" ADD CONSTRAINT "wallet_qr_requests_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_provider_events" ADD CONSTRAINT "card_provider_events_payment_intent_id_card_provider_payment_intents_id_fk" FOREIGN KEY ("payment_intent_id") REFERENCES "public"."card_provider_payment_intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_provider_payment_intents" ADD CONSTRAINT "card_provider_payment_intents_payment_method_id_card_provider_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."card_provider_payment_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_provider_refunds" ADD CONSTRAINT "card_provider_refunds_payment_intent_id_card_provider_payment_intents_id_fk" FOREIGN KEY ("payment_intent_id") REFERENCES "public"."card_provider_payment_intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_payments" ADD CONSTRAINT "card_payments_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_payments" ADD CONSTRAINT "card_payments_preselected_card_id_saved_cards_id_fk" FOREIGN KEY ("preselected_card_id") REFERENCES "public"."saved_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_payments" ADD CONSTRAINT "card_payments_saved_card_id_saved_cards_id_fk" FOREIGN KEY ("saved_card_id") REFERENCES "public"."saved_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_cards" ADD CONSTRAINT "saved_cards_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_cards" ADD CONSTRAINT "saved_cards_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_method_catalog" ADD CONSTRAINT "payment_method_catalog_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_credentials_service_idx" ON "api_credentials" USING btree ("service_id");--> statement-breakpoint
CREATE INDEX "customer_tokens_family_idx" ON "customer_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_attempts_number_idx" ON "notification_attempts" USING btree ("notification_id","attempt_number");--> statement-breakpoint
CREATE INDEX "notifications_due_idx" ON "notifications" USING btree ("next_attempt_at") WHERE "notifications"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "notifications_service_idx" ON "notifications" USING btree ("service_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_captures_payment_idx" ON "payment_captures" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_refunds_payment_idx" ON "payment_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payments_open_expiry_idx" ON "payments" USING btree ("expires_at") WHERE "payments"."state" IN ('CREATED', 'PROCESSING', 'REQUIRES_ACTION');--> statement-breakpoint
CREATE INDEX "payments_reserved_idx" ON "payments" USING btree ("authorized_at") WHERE "payments"."state" = 'PRE_AUTHORIZED';--> statement-breakpoint
CREATE INDEX "payments_customer_idx" ON "payments" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "wallet_entries_account_idx" ON "wallet_entries" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "wallet_entries_payment_idx" ON "wallet_entries" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expiry_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "rate_limits_tat_idx" ON "rate_limits" USING btree ("tat_ms");--> statement-breakpoint
CREATE INDEX "card_provider_events_pending_idx" ON "card_provider_events" USING btree ("created_at") WHERE "card_provider_events"."delivered_at" IS NULL;--> statement-breakpoint
CREATE INDEX "card_provider_pm_customer_idx" ON "card_provider_payment_methods" USING btree ("customer_ref");--> statement-breakpoint
CREATE INDEX "card_provider_refunds_pi_idx" ON "card_provider_refunds" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_cards_customer_fingerprint_unique" ON "saved_cards" USING btree ("customer_id","fingerprint") WHERE "saved_cards"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "saved_cards_customer_order_idx" ON "saved_cards" USING btree ("customer_id","last_used_at","created_at");--> statement-breakpoint
CREATE INDEX "payment_method_catalog_lookup_idx" ON "payment_method_catalog" USING btree ("service_id","country","position");