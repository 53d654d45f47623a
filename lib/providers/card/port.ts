import type { Db } from "../../db/client";
import type { CardAccountRef } from "./card-provider-accounts";

/**
 * The card provider as the payment domain sees it, shaped after Stripe-like providers: the
 * gateway creates a provider payment intent on the server; the buyer's browser tokenizes the
 * card and confirms that intent directly with the provider using the service's publishable
 * key (card number and CVC never pass through gateway code); the provider may ask for a 3DS
 * challenge; the gateway then reads the outcome back (finalize, or the provider's signed
 * event) and captures, cancels or refunds on the server.
 *
 * The port takes no database transaction: money-moving calls run between the gateway's
 * transactions (lib/provider-operations records them before and settles them after), carry
 * an idempotency key, and the same key always gets the same answer without a second change.
 * The `db` argument is the database handle for adapters that keep their books there (the
 * sandbox); a call made inside a transaction is refused by the guard (lib/providers/card-provider.ts).
 */
export interface CardProvider {
  /** Creates the provider intent for one gateway payment; the same idempotencyKey returns the same intent. */
  createPaymentIntent(db: Db, request: CreateProviderIntentRequest): Promise<ProviderPaymentIntent>;
  retrievePaymentIntent(
    db: Db,
    request: { id: string; account: CardAccountRef },
  ): Promise<ProviderPaymentIntent | null>;
  retrievePaymentMethod(
    db: Db,
    request: { id: string; account: CardAccountRef },
  ): Promise<ProviderPaymentMethod | null>;
  /** Manual capture of all or part of an authorized intent; the provider releases the rest. */
  capturePaymentIntent(
    db: Db,
    request: { id: string; amountMinor: number; idempotencyKey: string; account: CardAccountRef },
  ): Promise<{ capturedMinor: number; releasedMinor: number }>;
  /** Cancels an intent; an authorization is released in full. */
  cancelPaymentIntent(
    db: Db,
    request: { id: string; idempotencyKey: string; account: CardAccountRef },
  ): Promise<{ releasedMinor: number }>;
  refundPaymentIntent(
    db: Db,
    request: { id: string; amountMinor: number; idempotencyKey: string; account: CardAccountRef },
  ): Promise<{ refundId: string }>;
  /** Forgets a saved card at the provider: it can no longer be charged. */
  detachPaymentMethod(db: Db, request: { id: string; idempotencyKey: string; account: CardAccountRef }): Promise<void>;
  /** What the hosted card page's script needs to confirm the intent from the browser. */
  browserConfirmation(
    db: Db,
    request: { intent: ProviderPaymentIntent; publishableKey: string; account: CardAccountRef },
  ): Promise<BrowserConfirmation>;
  /** Checks an inbound event's signature and reads it; null when it is not genuine or too old. */
  verifyEvent(db: Db, request: { rawBody: string; headers: Headers; now: Date }): Promise<ProviderEvent | null>;
}

export type ProviderIntentStatus =
  "requires_payment_method" | "requires_action" | "requires_capture" | "succeeded" | "canceled";

export type ProviderCaptureMethod = "automatic" | "manual";

/** Why the provider refused a confirmation. */
export type ProviderErrorCode = "card_declined" | "insufficient_funds" | "authentication_failed";

export interface CreateProviderIntentRequest {
  account: CardAccountRef;
  /** The merchant account at the provider: its publishable key. */
  publishableKey: string;
  idempotencyKey: string;
  amountMinor: number;
  currency: string;
  captureMethod: ProviderCaptureMethod;
  /** The provider-side customer the card is attached to when the buyer saves it. */
  customerRef: string;
  metadata: Record<string, string>;
}

export interface ProviderPaymentIntent {
  id: string;
  status: ProviderIntentStatus;
  amountMinor: number;
  currency: string;
  captureMethod: ProviderCaptureMethod;
  amountCapturableMinor: number;
  amountReceivedMinor: number;
  amountRefundedMinor: number;
  paymentMethodId: string | null;
  /** The buyer asked to keep the card for later payments. */
  setupFutureUsage: boolean;
  customerRef: string | null;
  metadata: Record<string, string>;
  lastErrorCode: ProviderErrorCode | null;
}

export interface ProviderPaymentMethod {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  fingerprint: string;
  customerRef: string | null;
  detached: boolean;
}

export interface BrowserConfirmation {
  /** Stripe.js: Stripe's own script in production, the sandbox provider's stand-in in the sandbox. */
  stripeJsUrl: string;
  publishableKey: string;
  /** The provider intent's client secret: lets the browser confirm this one intent only. */
  clientSecret: string;
  /** Where the sandbox's Stripe.js stand-in posts the confirmation (tests confirm there too); "" for Stripe. */
  confirmUrl: string;
  /** Set while the intent waits for the buyer's 3DS challenge: where to send them to finish it. */
  nextActionUrl: string | null;
}

export type ProviderEventType =
  "payment_intent.succeeded" | "payment_intent.amount_capturable_updated" | "payment_intent.payment_failed";

export interface ProviderEvent {
  id: string;
  type: ProviderEventType;
  paymentIntentId: string;
  paymentMethodId: string | null;
  metadata: Record<string, string>;
}
