CREATE TABLE "database_seal" (
	"only" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"environment" text NOT NULL,
	"secret_fingerprint" text NOT NULL,
	"sealed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "database_seal_one_row" CHECK ("database_seal"."only"),
	CONSTRAINT "database_seal_environment" CHECK ("database_seal"."environment" in ('sandbox', 'production'))
);
