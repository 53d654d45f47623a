-- The simulators' books (the Stripe simulator's and the sandbox wallet's) leave the gateway's
-- tables: from now on only a process that runs a simulator creates them, in the schema
-- `simulators` (simulators/drizzle). A sandbox database whose simulators hold anything keeps it:
-- the tables move there, rows, keys and types alike, and the simulators' own migrations then
-- find them in place. Any other database loses them: a production database (its seal says so)
-- never used them, since its card provider is Stripe and its wallet is reached over HTTP; a
-- database whose simulator tables are empty loses nothing, and a sandbox process re-creates them.
-- Locked first, so an older gateway still serving cannot write a row between the check below
-- and the drop (its write waits, then fails on the moved or dropped table, and is retried).
LOCK TABLE public.card_provider_payment_methods, public.card_provider_payment_intents, public.card_provider_refunds,
  public.card_provider_events, public.card_provider_idempotency_keys, public.wallet_accounts, public.wallet_holds,
  public.wallet_entries, public.otp_challenges, public.wallet_operations, public.wallet_qr_requests IN ACCESS EXCLUSIVE MODE;
--> statement-breakpoint
DO $$
DECLARE
  sealed_production boolean := EXISTS (SELECT 1 FROM public.database_seal WHERE environment = 'production');
  simulators_hold_rows boolean :=
    EXISTS (SELECT 1 FROM public.card_provider_payment_methods) OR
    EXISTS (SELECT 1 FROM public.card_provider_payment_intents) OR
    EXISTS (SELECT 1 FROM public.card_provider_refunds) OR
    EXISTS (SELECT 1 FROM public.card_provider_events) OR
    EXISTS (SELECT 1 FROM public.card_provider_idempotency_keys) OR
    EXISTS (SELECT 1 FROM public.wallet_accounts) OR
    EXISTS (SELECT 1 FROM public.wallet_holds) OR
    EXISTS (SELECT 1 FROM public.wallet_entries) OR
    EXISTS (SELECT 1 FROM public.otp_challenges) OR
    EXISTS (SELECT 1 FROM public.wallet_operations) OR
    EXISTS (SELECT 1 FROM public.wallet_qr_requests);
BEGIN
  IF simulators_hold_rows AND NOT sealed_production THEN
    CREATE SCHEMA IF NOT EXISTS simulators;
    ALTER TABLE public.card_provider_payment_methods SET SCHEMA simulators;
    ALTER TABLE public.card_provider_payment_intents SET SCHEMA simulators;
    ALTER TABLE public.card_provider_refunds SET SCHEMA simulators;
    ALTER TABLE public.card_provider_events SET SCHEMA simulators;
    ALTER TABLE public.card_provider_idempotency_keys SET SCHEMA simulators;
    ALTER TABLE public.wallet_accounts SET SCHEMA simulators;
    ALTER TABLE public.wallet_holds SET SCHEMA simulators;
    ALTER TABLE public.wallet_entries SET SCHEMA simulators;
    ALTER TABLE public.otp_challenges SET SCHEMA simulators;
    ALTER TABLE public.wallet_operations SET SCHEMA simulators;
    ALTER TABLE public.wallet_qr_requests SET SCHEMA simulators;
    ALTER TYPE public.card_provider_intent_status SET SCHEMA simulators;
    ALTER TYPE public.card_provider_capture_method SET SCHEMA simulators;
    ALTER TYPE public.wallet_hold_status SET SCHEMA simulators;
    ALTER TYPE public.wallet_entry_kind SET SCHEMA simulators;
    ALTER TYPE public.wallet_operation_status SET SCHEMA simulators;
    ALTER TYPE public.wallet_qr_status SET SCHEMA simulators;
  ELSE
    DROP TABLE public.card_provider_payment_methods CASCADE;
    DROP TABLE public.card_provider_payment_intents CASCADE;
    DROP TABLE public.card_provider_refunds CASCADE;
    DROP TABLE public.card_provider_events CASCADE;
    DROP TABLE public.card_provider_idempotency_keys CASCADE;
    DROP TABLE public.wallet_accounts CASCADE;
    DROP TABLE public.wallet_holds CASCADE;
    DROP TABLE public.wallet_entries CASCADE;
    DROP TABLE public.otp_challenges CASCADE;
    DROP TABLE public.wallet_operations CASCADE;
    DROP TABLE public.wallet_qr_requests CASCADE;
    DROP TYPE public.card_provider_intent_status;
    DROP TYPE public.card_provider_capture_method;
    DROP TYPE public.wallet_hold_status;
    DROP TYPE public.wallet_entry_kind;
    DROP TYPE public.wallet_operation_status;
    DROP TYPE public.wallet_qr_status;
  END IF;
END $$;
