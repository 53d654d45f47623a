// The prefixes of the bearer credentials the gateway issues: merchants mint publishable keys,
// customers mint token pairs, and auth tells a credential's kind from them. Here, below all three,
// so the issuer and the reader share one definition without importing each other.

export const PUBLISHABLE_KEY_PREFIX = "pk_service_";
export const ACCESS_TOKEN_PREFIX = "cat_";
export const REFRESH_TOKEN_PREFIX = "crt_";
