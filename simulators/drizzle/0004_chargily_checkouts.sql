CREATE TABLE "simulators"."chargily_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"secret_key" text NOT NULL,
	"livemode" text DEFAULT 'false' NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"locale" text NOT NULL,
	"description" text,
	"success_url" text NOT NULL,
	"failure_url" text,
	"webhook_endpoint" text,
	"metadata" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"payment_method" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
