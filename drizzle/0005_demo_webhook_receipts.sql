CREATE TABLE "demo_webhook_receipts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"webhook_id" text,
	"signature_valid" boolean NOT NULL,
	"body" jsonb NOT NULL
);
