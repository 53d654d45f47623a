CREATE TABLE "payment_links" (
	"id" text PRIMARY KEY NOT NULL,
	"service_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"amount_minor" bigint,
	"min_amount_minor" bigint,
	"max_amount_minor" bigint,
	"currency" text NOT NULL,
	"country" text NOT NULL,
	"capture_method" "capture_method" DEFAULT 'DIRECT' NOT NULL,
	"reusable" boolean DEFAULT true NOT NULL,
	"deactivated_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"locale" text NOT NULL,
	"meta_data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_links_amounts_positive" CHECK (coalesce("payment_links"."amount_minor", 1) > 0 AND coalesce("payment_links"."min_amount_minor", 1) > 0 AND coalesce("payment_links"."max_amount_minor", 1) > 0),
	CONSTRAINT "payment_links_fixed_or_bounded" CHECK ("payment_links"."amount_minor" IS NULL OR ("payment_links"."min_amount_minor" IS NULL AND "payment_links"."max_amount_minor" IS NULL)),
	CONSTRAINT "payment_links_bounds_ordered" CHECK ("payment_links"."min_amount_minor" IS NULL OR "payment_links"."max_amount_minor" IS NULL OR "payment_links"."min_amount_minor" <= "payment_links"."max_amount_minor"),
	CONSTRAINT "payment_links_locale" CHECK ("payment_links"."locale" IN ('en', 'fr', 'ar'))
);
--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_links_service_idx" ON "payment_links" USING btree ("service_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_link_idx" ON "payments" USING btree ("service_id",("meta_data" ->> 'paymentLinkId')) WHERE "payments"."meta_data" ? 'paymentLinkId';