CREATE TABLE "simulators"."clictopay_orders" (
	"order_id" text PRIMARY KEY NOT NULL,
	"user_name" text NOT NULL,
	"order_number" text NOT NULL,
	"phases" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"language" text NOT NULL,
	"return_url" text NOT NULL,
	"fail_url" text NOT NULL,
	"order_status" text DEFAULT '0' NOT NULL,
	"action_code" text,
	"action_code_description" text,
	"approval_code" text,
	"masked_pan" text,
	"challenge" text,
	"approved_minor" bigint DEFAULT 0 NOT NULL,
	"deposited_minor" bigint DEFAULT 0 NOT NULL,
	"refunded_minor" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "clictopay_orders_number_idx" ON "simulators"."clictopay_orders" USING btree ("user_name","order_number");