/**
 * A service's origin allow-list (merchant_auth from a browser, contract 1; returnUrl and
 * redirectUrl targets, contract 8). An entry is an exact origin (`https://shop.example`) or
 * `scheme://host:*`, which admits that host on any port (the sandbox demo merchant allows
 * `http://localhost:*` and `http://127.0.0.1:*`).
 */
const ANY_PORT = /^(https?):\/\/([^/:]+):\*$/i;

/** `scheme://host:*` lower-cased when the entry is an any-port pattern, else null. */
export function anyPortEntry(entry: string): string | null {
  const anyPort = ANY_PORT.exec(entry);
  return anyPort ? `${anyPort[1]!.toLowerCase()}://${anyPort[2]!.toLowerCase()}:*` : null;
}

/** The form an entry is stored in: an origin, or a lower-cased any-port pattern. */
export function normalizeAllowListEntry(entry: string): string {
  return anyPortEntry(entry) ?? new URL(entry).origin;
}

/** Whether an origin (`new URL(...).origin`) is on the allow-list. */
export function isOriginAllowed(origin: string, allowList: readonly string[]): boolean {
  if (allowList.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return allowList.some((entry) => {
    const anyPort = ANY_PORT.exec(entry);
    return anyPort !== null && url.protocol === `${anyPort[1]}:` && url.hostname === anyPort[2];
  });
}

/** The sandbox demo merchant's local origins: any port of localhost and 127.0.0.1. */
export const LOCAL_DEVELOPMENT_ORIGINS = ["http://localhost:*", "http://127.0.0.1:*"];
