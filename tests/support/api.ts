import { basicBearer } from "@/lib/auth/detect-credential";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { contractProblems } from "./response-contract";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** What was asked, for checks that depend on the operation. */
  request?: { method: string; path: string };
}

/**
 * A thin fetch wrapper: tests read status, headers and the parsed envelope. `baseUrl` may be
 * a function, read at each call, for a client made before its server has started. Every
 * answer of a documented operation is checked against that operation's response schema and
 * error names (the OpenAPI document's source), so no test can forget to.
 */
export function apiClient(baseUrl: string | (() => string)) {
  async function call<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const base = typeof baseUrl === "function" ? baseUrl() : baseUrl;
    const response = await fetch(`${base}${path}`, { method, headers, body, redirect: "manual" });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: tests assert on the text.
    }
    const answer = { status: response.status, headers: response.headers, body: parsed as T, request: { method, path } };
    const problems = contractProblems(method, path, answer);
    if (problems.length > 0) throw new Error(`the answer breaks the API description:\n${problems.join("\n")}`);
    return answer;
  }
  return {
    call,
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>("GET", path, { headers }),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      call<T>("POST", path, { body, headers }),
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      call<T>("PUT", path, { body, headers }),
    delete: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      call<T>("DELETE", path, { body, headers }),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

/** client_auth headers for a merchant's server. */
export function clientAuth(merchant: OnboardedMerchant, extra: Record<string, string> = {}) {
  return { authorization: basicBearer(merchant.clientId, merchant.clientSecret), ...extra };
}

/** merchant_auth headers for a browser holding one intent's client secret. */
export function merchantAuth(merchant: OnboardedMerchant, clientSecret: string, extra: Record<string, string> = {}) {
  return { authorization: `Bearer ${merchant.publishableKey}`, "x-client-secret": clientSecret, ...extra };
}

/** user_auth headers for a signed-in customer. */
export function userAuth(merchant: OnboardedMerchant, accessToken: string, extra: Record<string, string> = {}) {
  return { "x-client-token": accessToken, "x-service": merchant.service, ...extra };
}
