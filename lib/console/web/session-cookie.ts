import { CONSOLE_SESSION_COOKIE } from "../access/console-principal";
import { getConfig } from "../../config";
import { SESSION_ABSOLUTE_MS } from "../access/session-rules";

/**
 * Contract 13: HttpOnly, SameSite=Lax, Secure in production (and wherever the gateway is served
 * over https). It lives at most the session's 7 days; the server ends it sooner.
 */
export function sessionCookie(token: string | null): string {
  const config = getConfig();
  const secure = !config.isSandbox || config.publicBaseUrl.startsWith("https:");
  const lifetime = token ? Math.floor(SESSION_ABSOLUTE_MS / 1000) : 0;
  return [
    `${CONSOLE_SESSION_COOKIE}=${token ?? ""}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${lifetime}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}
