import { constantTimeEqual, hmacHex } from "../../crypto/secrets";

/**
 * Contract 13's forgery token: an HMAC of the session's id under the gateway key, rendered into
 * every console form. Another session's token, or none, is refused; a page of another site
 * never sees it. Posts from another site are refused before it is even read (console-form-route).
 */
export function consoleFormToken(gatewayKey: Buffer, sessionId: string): string {
  return hmacHex(gatewayKey, "console-form", sessionId);
}

export function isValidConsoleFormToken(gatewayKey: Buffer, sessionId: string, token: unknown): boolean {
  return typeof token === "string" && constantTimeEqual(token, consoleFormToken(gatewayKey, sessionId));
}
