/** What every authenticated request knows about the merchant service it acts for. */
export interface ServiceContext {
  id: string;
  code: string;
  name: string;
  tenantId: string;
  countries: string[];
  allowedOrigins: string[];
  redirectUrl: string | null;
  webhookUrl: string | null;
  clockOffsetSeconds: number;
  cardProviderPublishableKey: string;
}

export type AuthMode = "client" | "merchant" | "user" | "intent_secret";

export interface ClientPrincipal {
  mode: "client";
  service: ServiceContext;
  credentialId: string;
  clientId: string;
}

/**
 * The buyer's browser (merchant_auth): the publishable key plus an intent's client secret (or the
 * hosted page's token), scoped to that one payment. Not the merchant's own server (ClientPrincipal).
 */
export interface BrowserPrincipal {
  mode: "merchant";
  service: ServiceContext;
  paymentId: string;
  publishableKey: string;
  clientSecret: string;
}

export interface UserPrincipal {
  mode: "user";
  service: ServiceContext;
  customerId: string;
  tokenId: string;
}

/** Card finalize: only the intent's client secret; the service comes from the payment. */
export interface IntentSecretPrincipal {
  mode: "intent_secret";
  paymentId: string;
  clientSecret: string;
}

export type Principal = ClientPrincipal | BrowserPrincipal | UserPrincipal | IntentSecretPrincipal;

export type PrincipalOf<M extends AuthMode> = Extract<Principal, { mode: M }>;

/** The key that scopes idempotency records and rate limits to one caller. */
export function callerKey(principal: Principal): string {
  switch (principal.mode) {
    case "client":
      return `client:${principal.clientId}`;
    case "merchant":
      return `merchant:${principal.paymentId}`;
    case "user":
      return `user:${principal.customerId}`;
    case "intent_secret":
      return `intent:${principal.paymentId}`;
  }
}
