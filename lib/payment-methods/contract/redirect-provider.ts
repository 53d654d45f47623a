import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import type { ProviderName } from "../../provider-operations";

/*
 * What one provider of a REDIRECT method (contract 15: the buyer pays on the provider's own
 * page and comes back) gives the archetype that every such method shares
 * (lib/payment-methods/redirect): register an order, read its outcome, refund. Each provider
 * implements it in its own folder (lib/payment-methods/satim/); the archetype does the rest
 * (the hosted page before the provider's, the provider operations, the return that asks the
 * provider, reconciliation, the late completion rule).
 */

/** A merchant's credentials at the provider, in clear, for the adapter only (never logged). */
export type RedirectAccount = Readonly<Record<string, string>>;

export interface RedirectOrderRequest {
  /** The merchant-side order number, unique per registration (orderNumberFor). */
  orderNumber: string;
  amountMinor: number;
  currency: string;
  /** Where the provider sends the buyer back, paid or not: the gateway asks the provider there, never the query. */
  returnUrl: string;
  locale: Locale;
  /** What the provider may show the buyer and report back (SATIM: udf1). */
  reference: string;
  /** RESERVATION: a pre-authorization the merchant captures or releases later (only a provider with `reservations`). */
  captureMethod: "DIRECT" | "RESERVATION";
  /**
   * Where a provider that notifies (RedirectProvider.notifications) posts the order's outcome: the gateway's
   * notification endpoint for this payment.
   */
  notifyUrl: string;
}

export interface RegisteredOrder {
  /** The provider's id of the order (SATIM: orderId, "mdOrder"). */
  orderId: string;
  /** The provider's payment page for it. */
  formUrl: string;
}

/** What the provider says of an order: the only source of a redirect payment's outcome. */
export type RedirectOutcome =
  | { kind: "awaiting_buyer" }
  | { kind: "paid"; amountMinor: number; approvalCode: string | null; maskedPan: string | null }
  | { kind: "declined"; code: string; message: string }
  /** A pre-authorization holds `amountMinor` on the buyer's card (RESERVATION): captured or released later. */
  | { kind: "authorized"; amountMinor: number; approvalCode: string | null; maskedPan: string | null }
  /** Paid once and since given back at the provider (reversed or refunded): nothing is left to take or return. */
  | { kind: "returned" };

export interface RedirectProvider {
  /**
   * provider_operations.provider of its registrations and refunds; also how the console names the method's
   * payments (its `?method=` filter value).
   */
  provider: ProviderName;
  /** The page before the provider's: the words naming the provider. */
  page: RedirectPage;
  /** Check's endUserMessage while the payment waits for the buyer on the provider's page (REQUIRES_ACTION). */
  requiresActionMessage: string;
  /** Why the provider cannot take this amount exactly (contract 15: 400 naming amount), or null. */
  amountRefusal(amountMinor: number, currency: string): string | null;
  /** A fresh order number for the payment's `attempt`-th registration (0 first). */
  orderNumberFor(paymentId: string, attempt: number): string;
  /** The merchant's credentials for this method; null when none are set (production refuses the method then). */
  account(db: Db, serviceId: string): Promise<RedirectAccount | null>;
  /**
   * Registers the order. Throws ProviderRefusedError for a refusal (code "order_number_taken" when
   * the provider already has the order number: a registration whose answer was lost); anything
   * else leaves the outcome unknown.
   */
  register(account: RedirectAccount, order: RedirectOrderRequest): Promise<RegisteredOrder>;
  /** The order's outcome as the provider reports it (its confirmation or status call). */
  outcome(account: RegisteredOrderRef & { account: RedirectAccount }): Promise<RedirectOutcome>;
  /**
   * Gives back `amountMinor` of a paid order (the provider's refund call); answers the provider's reference,
   * if any.
   */
  refund(
    request: RegisteredOrderRef & { account: RedirectAccount; amountMinor: number },
  ): Promise<{ reference: string | null }>;
  /**
   * How much of the order the provider has given back so far, in minor units (its status call's
   * refunded amount). A refund call carries no idempotency key at these providers, so a refund
   * whose answer was lost asks this before calling again (redirectRefundHandler). Null exactly
   * when refunds happen elsewhere (refundElsewhere).
   */
  refundedTotal: ((order: RegisteredOrderRef & { account: RedirectAccount }) => Promise<number>) | null;
  /**
   * What a provider that takes pre-authorizations does with them (ClicToPay: deposit.do, reverse.do); null:
   * DIRECT only.
   */
  reservations: RedirectReservations | null;
  /**
   * For a DIRECT-only provider: closes an order nobody paid, at the payment's expiry, so a late
   * buyer cannot pay it (Chargily: POST /checkouts/{id}/expire). Answers "nothing_held" when
   * the order is no longer payable anyway. Null: unpaid orders lapse at the provider by themselves.
   */
  closeUnpaid:
    ((request: RegisteredOrderRef & { account: RedirectAccount }) => Promise<"released" | "nothing_held">) | null;
  /**
   * Null: refunds go through the provider's API. Otherwise where the merchant refunds instead (contract 15:
   * 409 with that message).
   */
  refundElsewhere: string | null;
  /**
   * Whether the provider's answer about a paid order carries the card's authorization code
   * (SATIM and ClicToPay: approvalCode; CMI: AUTH_CODE, the callback's AuthCode). Chargily's
   * checkouts carry none: the console says so rather than show an empty code.
   */
  givesAuthorizationCode: boolean;
  /** The countries the method serves: its declaration's catalog countries. */
  countries: readonly string[];
  /**
   * The merchant's credentials at the provider, field by field: the console's Settings "Payment
   * methods" draws its form from this list alone, and saveAccount takes these names.
   */
  credentialFields: readonly CredentialField[];
  /**
   * Validates, seals and stores the merchant's credentials (the CLI, the console's Settings); answers what
   * may be shown (never a secret).
   */
  saveAccount(
    db: Db,
    options: { serviceId: string; settings: Record<string, string | undefined> },
  ): Promise<Record<string, string>>;
  /** A harmless call with the credentials: tells wrong credentials from a provider that is down ("Test connection"). */
  testConnection(account: RedirectAccount): Promise<ConnectionTest>;
  /**
   * Null: the provider notifies nothing (the return and reconciliation ask it). Otherwise how its signed
   * notifications are read.
   */
  notifications: RedirectNotifications | null;
  /**
   * What the provider's certification asks of the hosted pages around its own (SATIM's checklist); absent:
   * nothing more.
   */
  checkout?: RedirectCheckout;
  /**
   * A provider whose page the buyer's browser reaches by posting a form signed on the server
   * (CMI's 3D Pay Hosting) rather than by following formUrl: the fields of the registered
   * order, posted to `action` by the page before the provider's own Pay button. Absent: formUrl is followed.
   */
  browserForm?(
    account: RedirectAccount,
    order: RedirectOrderRequest & { orderId: string },
  ): { action: string; fields: Record<string, string> };
  /**
   * The provider's server-to-server notification (POST /api/redirect-callbacks/{method}), answered as the
   * provider expects. Absent: none.
   */
  receiveCallback?(db: Db, request: Request): Promise<Response>;
}

/**
 * What the page before the provider's (lib/hosted/views/redirect-page-view.ts) takes from the provider; where
 * the provider's own page is, for its CSP, is in the method's declaration (pageOrigins).
 */
export interface RedirectPage {
  /**
   * The keys, under `redirect` (its declaration's messages.<locale>.json, or messages/<locale>.json), of the
   * sentence introducing the provider's page and of its logo's name.
   */
  words: { intro: string; logoAlt: string };
}

/** The hosted pages' part of a provider's merchant certification (contract 15, SATIM). */
export interface RedirectCheckout {
  /**
   * Before the order is registered, the buyer ticks "I accept the terms of payment" (the
   * merchant's terms linked) and passes the anti-bot check; the server refuses the post otherwise.
   */
  buyerChecks: boolean;
  /** The return page shows the provider's logo, its support message and its toll-free number. */
  support: { logoPath: string; phone: string } | null;
}

/**
 * A provider that posts the outcome of an order to the gateway (Chargily's webhook): the
 * notification is verified against the merchant's credentials and read as an outcome, which the
 * archetype applies once, whatever the order of notification, return and reconciliation.
 */
export interface RedirectNotifications {
  /**
   * The order and outcome a notification reports, or null when its signature does not verify (nothing is read
   * from it then).
   */
  read(
    account: RedirectAccount,
    notification: { body: string; headers: Headers },
  ): { orderId: string; outcome: RedirectOutcome } | null;
}

export interface RedirectReservations {
  /** Takes `amountMinor` (all or part) of a pre-authorization; the rest goes back to the buyer. */
  capture(request: RegisteredOrderRef & { account: RedirectAccount; amountMinor: number }): Promise<void>;
  /**
   * Gives the whole hold back (or closes an order nobody paid, so a late buyer cannot pay it).
   * Answers "nothing_held" when the provider holds nothing for the order (never paid, already reversed).
   */
  release(request: RegisteredOrderRef & { account: RedirectAccount }): Promise<"released" | "nothing_held">;
}

export type ConnectionTest = "ok" | "wrong_credentials" | "unavailable";

/** One credential a provider needs from the merchant (contract 15, "Enabling"). */
export interface CredentialField {
  /** The key saveAccount takes it under, and the console form's field name. */
  name: string;
  /** Its label's message key under `console.settings.methods.fields` (its declaration's messages.<locale>.json). */
  labelKey: string;
  /**
   * A secret is sealed and never shown again: the console says only that it is set and when the
   * credentials last changed, and a secret left empty there keeps the stored one.
   */
  secret: boolean;
}

export interface RegisteredOrderRef {
  orderId: string;
  locale: Locale;
}
