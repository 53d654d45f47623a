ALTER TYPE "public"."provider_name" ADD VALUE 'satim';--> statement-breakpoint
CREATE TABLE "console_password_reset_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console_password_resets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "console_password_resets_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "metrics_snapshots" (
	"instance" text PRIMARY KEY NOT NULL,
	"written_at" timestamp with time zone DEFAULT now() NOT NULL,
	"metrics" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "redirect_payments" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"method_code" text NOT NULL,
	"order_number" text,
	"provider_order_id" text,
	"form_url" text,
	"registered_at" timestamp with time zone,
	"last_asked_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "redirect_provider_accounts" (
	"service_id" uuid NOT NULL,
	"method_code" text NOT NULL,
	"settings_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redirect_provider_accounts_service_id_method_code_pk" PRIMARY KEY("service_id","method_code")
);
--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "terms_url" text;--> statement-breakpoint
ALTER TABLE "console_password_resets" ADD CONSTRAINT "console_password_resets_user_id_console_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."console_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console_password_resets" ADD CONSTRAINT "console_password_resets_created_by_console_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redirect_payments" ADD CONSTRAINT "redirect_payments_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "console_password_reset_requests_email_idx" ON "console_password_reset_requests" USING btree ("email","requested_at");--> statement-breakpoint
CREATE INDEX "console_password_resets_user_idx" ON "console_password_resets" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "redirect_payments_unfinished_idx" ON "redirect_payments" USING btree ("last_asked_at") WHERE "redirect_payments"."finished_at" IS NULL AND "redirect_payments"."provider_order_id" IS NOT NULL;