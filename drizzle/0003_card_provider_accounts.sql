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
