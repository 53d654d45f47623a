/**
 * The developer kit's calls to a gateway over HTTP with a merchant's client credentials
 * (client_auth), against any base URL: what `npm run gateway -- listen|trigger` use.
 */
export interface GatewayCredentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export class GatewayCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export function gatewayApi(credentials: GatewayCredentials) {
  const basic = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString("base64");
  const authorization = `Bearer ${basic}`;
  const base = credentials.baseUrl.replace(/\/+$/, "");
  async function call<T>(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ data: T; envelope: Record<string, unknown> }> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization,
          ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
          ...options.headers,
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      });
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code ?? "no answer";
      throw new GatewayCallError(
        `Could not reach the gateway at ${base} (${code}). Is it running? Give --base-url.`,
        0,
      );
    }
    const text = await response.text();
    let envelope: Record<string, unknown>;
    try {
      envelope = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new GatewayCallError(
        `${method} ${path}: ${response.status}, not a gateway answer (is ${base} the gateway?)`,
        response.status,
      );
    }
    if (!response.ok) {
      const details = (envelope.error as { details?: { path: string; message: string }[] } | undefined)?.details ?? [];
      const extra = details.map((detail) => ` ${detail.path}: ${detail.message};`).join("");
      throw new GatewayCallError(
        `${method} ${path}: ${response.status} ${String(envelope.message)}${extra}`,
        response.status,
      );
    }
    return { data: envelope.data as T, envelope };
  }
  return { call };
}

export type GatewayApi = ReturnType<typeof gatewayApi>;
