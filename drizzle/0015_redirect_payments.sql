ALTER TYPE "public"."provider_name" ADD VALUE 'satim';--> statement-breakpoint
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
ALTER TABLE "redirect_payments" ADD CONSTRAINT "redirect_payments_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "redirect_payments_unfinished_idx" ON "redirect_payments" USING btree ("last_asked_at") WHERE "redirect_payments"."finished_at" IS NULL AND "redirect_payments"."provider_order_id" IS NOT NULL;