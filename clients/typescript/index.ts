import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths } from "./schema";

export type { components, operations, paths, webhooks } from "./schema";

export interface ServerCredentials {
  /** The gateway's base address, e.g. `http://localhost:3000`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The service code; sent as `x-service`, which proceed and check require under client_auth. */
  service: string;
  fetch?: typeof fetch;
}

/**
 * A typed client for your server (client_auth), generated from the gateway's openapi.json by
 * openapi-typescript and called through openapi-fetch: paths, parameters, bodies and answers
 * are checked by TypeScript, and every request carries `Authorization` and `x-service`.
 */
export function createGatewayClient(credentials: ServerCredentials): Client<paths> {
  const client = createClient<paths>({ baseUrl: credentials.baseUrl, fetch: credentials.fetch });
  const authorization = `Bearer ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`;
  const clientAuth: Middleware = {
    onRequest({ request }) {
      request.headers.set("authorization", authorization);
      request.headers.set("x-service", credentials.service);
      return request;
    },
  };
  client.use(clientAuth);
  return client;
}
