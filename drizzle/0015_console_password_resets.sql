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
ALTER TABLE "console_password_resets" ADD CONSTRAINT "console_password_resets_user_id_console_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."console_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console_password_resets" ADD CONSTRAINT "console_password_resets_created_by_console_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "console_password_reset_requests_email_idx" ON "console_password_reset_requests" USING btree ("email","requested_at");--> statement-breakpoint
CREATE INDEX "console_password_resets_user_idx" ON "console_password_resets" USING btree ("user_id");