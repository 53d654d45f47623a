CREATE TYPE "public"."provider_name" AS ENUM('card', 'wallet');--> statement-breakpoint
CREATE TYPE "public"."provider_operation_status" AS ENUM('pending', 'unknown', 'succeeded', 'failed');--> statement-breakpoint
CREATE TABLE "card_provider_accounts" (
	"service_id" text NOT NULL,
	"country" text NOT NULL,
	"publishable_key" text NOT NULL,
	"secret_key_sealed" text NOT NULL,
	"webhook_secret_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_provider_accounts_service_id_country_pk" PRIMARY KEY("service_id","country")
);
--> statement-breakpoint
CREATE TABLE "card_provider_customers" (
	"service_id" text NOT NULL,
	"country" text NOT NULL,
	"customer_id" text NOT NULL,
	"provider_customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_provider_customers_service_id_country_customer_id_pk" PRIMARY KEY("service_id","country","customer_id")
);
--> statement-breakpoint
CREATE TABLE "card_provider_idempotency_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"operation" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_operations" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" uuid,
	"provider" "provider_name" NOT NULL,
	"kind" text NOT NULL,
	"amount_minor" bigint,
	"request" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" "provider_operation_status" DEFAULT 'pending' NOT NULL,
	"provider_reference" text,
	"result_code" text,
	"result" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "provider_operations" ADD CONSTRAINT "provider_operations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_operations_one_open_per_payment" ON "provider_operations" USING btree ("payment_id") WHERE "provider_operations"."status" IN ('pending', 'unknown');--> statement-breakpoint
CREATE INDEX "provider_operations_open_idx" ON "provider_operations" USING btree ("next_attempt_at") WHERE "provider_operations"."status" IN ('pending', 'unknown');