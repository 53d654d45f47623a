CREATE TYPE "public"."wallet_operation_status" AS ENUM('succeeded', 'refused');--> statement-breakpoint
ALTER TYPE "public"."wallet_qr_status" ADD VALUE 'canceled';--> statement-breakpoint
CREATE TABLE "wallet_operations" (
	"operation_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"request_hash" text NOT NULL,
	"payment_id" uuid NOT NULL,
	"status" "wallet_operation_status" NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "otp_challenges" DROP CONSTRAINT "otp_challenges_payment_id_payments_id_fk";
--> statement-breakpoint
ALTER TABLE "wallet_accounts" DROP CONSTRAINT "wallet_accounts_service_id_services_id_fk";
--> statement-breakpoint
ALTER TABLE "wallet_accounts" DROP CONSTRAINT "wallet_accounts_customer_id_customers_id_fk";
--> statement-breakpoint
ALTER TABLE "wallet_entries" DROP CONSTRAINT "wallet_entries_payment_id_payments_id_fk";
--> statement-breakpoint
ALTER TABLE "wallet_holds" DROP CONSTRAINT "wallet_holds_payment_id_payments_id_fk";
--> statement-breakpoint
ALTER TABLE "wallet_qr_requests" DROP CONSTRAINT "wallet_qr_requests_payment_id_payments_id_fk";
--> statement-breakpoint
ALTER TABLE "wallet_qr_requests" ADD COLUMN "operation_id" text;--> statement-breakpoint
ALTER TABLE "wallet_qr_requests" ADD COLUMN "service_id" uuid;--> statement-breakpoint
ALTER TABLE "wallet_qr_requests" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "wallet_qr_requests" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "wallet_qr_requests" ADD COLUMN "amount_minor" bigint;--> statement-breakpoint
ALTER TABLE "wallet_qr_requests" ADD COLUMN "capture_method" text;--> statement-breakpoint
ALTER TABLE "wallet_qr_requests" ADD COLUMN "callback_url" text;--> statement-breakpoint
ALTER TABLE "wallet_qr_requests" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "wallet_qr_requests" ADD CONSTRAINT "wallet_qr_requests_operation_id_unique" UNIQUE("operation_id");