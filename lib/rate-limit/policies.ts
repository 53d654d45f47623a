/** One quota: at most `quota` requests per `windowSeconds`, enforced by GCRA (lib/rate-limit/gcra.ts). */
export interface RateLimitPolicy {
  /** The policy id the RateLimit-Policy and RateLimit header fields name. */
  name: string;
  quota: number;
  windowSeconds: number;
  windowMs: number;
  /** GCRA's emission interval: one request's worth of quota comes back every intervalMs. */
  intervalMs: number;
}

function policy(name: string, quota: number, windowSeconds: number): RateLimitPolicy {
  const windowMs = windowSeconds * 1000;
  // Whole milliseconds keep PostgreSQL, Redis and TypeScript on identical integer arithmetic.
  if (!Number.isInteger(quota) || quota < 1 || windowMs % quota !== 0) {
    throw new Error(`rate limit ${name}: ${windowMs} ms must divide evenly by the quota ${quota}`);
  }
  return { name, quota, windowSeconds, windowMs, intervalMs: windowMs / quota };
}

/** Contract section 6. */
export const rateLimitPolicies = {
  /** client_auth: per client id. */
  client: policy("client", 6000, 60),
  /** merchant_auth: per publishable key. */
  publishableKey: policy("key", 600, 60),
  /** merchant_auth and card finalize: per client secret, i.e. per payment. */
  clientSecret: policy("secret", 120, 60),
  /** user_auth: per customer. */
  customer: policy("customer", 300, 60),
  /**
   * A payment link's page: intents started per link (anyone may post it). A busy shop's link
   * takes one a second; a script creating intents and customers on a merchant's behalf is braked.
   * Only a valid start counts (lib/hosted/payment-link-form.ts): junk creates nothing and never
   * uses it up.
   */
  paymentLink: policy("link", 60, 60),
  /**
   * Posts to one link's page from one client address, junk included: one client never uses up the
   * link's quota alone.
   */
  paymentLinkClient: policy("link_client", 20, 60),
  /** Valid starts on one link for one phone: one number is not sent code after code. */
  paymentLinkPhone: policy("link_phone", 5, 60),
  /** The return page's "Send receipt": emails per payment, so nobody turns it into a mail cannon. */
  receiptEmail: policy("receipt", 5, 600),
  /** An anti-bot challenge passes once in its lifetime (lib/hosted/anti-bot): the store spends it. */
  antiBotSolution: policy("antibot", 1, 600),
} as const;

/**
 * Store keys name the caller, never a secret: a client secret is keyed by the payment id it
 * names, so the store holds nothing a caller could authenticate with.
 */
export const rateLimitKeys = {
  client: (clientId: string) => `client:${clientId}`,
  publishableKey: (publishableKey: string) => `key:${publishableKey}`,
  clientSecret: (paymentId: string) => `secret:${paymentId}`,
  customer: (customerId: string) => `customer:${customerId}`,
  paymentLink: (linkId: string) => `link:${linkId}`,
  paymentLinkClient: (linkId: string, address: string) => `link-client:${linkId}:${address}`,
  paymentLinkPhone: (linkId: string, phone: string) => `link-phone:${linkId}:${phone}`,
  receiptEmail: (paymentId: string) => `receipt:${paymentId}`,
  /** A solved anti-bot challenge, spent once (lib/hosted/anti-bot). */
  antiBotSolution: (challengeId: string) => `antibot:${challengeId}`,
};

/** One limit to apply to a request: the policy and the key it counts against. */
export interface RateLimitCheck {
  policy: RateLimitPolicy;
  key: string;
}
