CREATE TABLE "simulators"."card_simulator_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "simulators"."satim_orders" (
	"order_id" text PRIMARY KEY NOT NULL,
	"user_name" text NOT NULL,
	"order_number" text NOT NULL,
	"terminal_id" text NOT NULL,
	"udf1" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"language" text NOT NULL,
	"return_url" text NOT NULL,
	"fail_url" text NOT NULL,
	"order_status" text DEFAULT '0' NOT NULL,
	"action_code" text,
	"resp_code_desc" text,
	"approval_code" text,
	"masked_pan" text,
	"challenge" text,
	"refunded_minor" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "satim_orders_number_idx" ON "simulators"."satim_orders" USING btree ("user_name","order_number");