import { randomUUID } from "node:crypto";
import { basicBearer } from "@/lib/auth/detect-credential";
import { clientAuth, merchantAuth, userAuth, type ApiResponse } from "../api";
import { cardEventSignatures } from "../cards";
import { fillPattern } from "./discover-routes";
import { pathNamesPayment, type Access, type RouteRequest, type RouteSpec } from "./route-table";
import type { World } from "./world";

type ApiMode = "client" | "merchant" | "user" | "intent_secret";

export interface CredentialVariant {
  name: string;
  /** The mode this credential is when the gateway must accept it; null: no endpoint may accept it. */
  mode: ApiMode | null;
  /** A good credential of another merchant or customer: accepted, then it must see nothing (cross-tenant suite). */
  crossTenant?: boolean;
  /** Only meaningful where the path names the payment (a client secret of another payment). */
  onlyWherePathNamesPayment?: boolean;
  /** Sent from a browser on an origin the service never allow-listed. */
  foreignOrigin?: boolean;
  headers(world: World, request: RouteRequest): Promise<Record<string, string>>;
}

const base64 = (text: string) => Buffer.from(text).toString("base64");
const FOREIGN_ORIGIN = "https://evil.example";

/** The client secret this request's merchant_auth needs: its payment's, or any fresh one of the owner. */
async function secretFor(world: World, request: RouteRequest): Promise<string> {
  return (request.payment ?? (await world.intent())).clientSecret;
}

/**
 * Every credential a caller might present, good and bad. Each API route is tried with all of
 * them; which answer each must get follows from the route's accepted modes alone.
 */
export const CREDENTIAL_VARIANTS: CredentialVariant[] = [
  { name: "no credential", mode: null, headers: async () => ({}) },
  { name: "a garbage bearer token", mode: null, headers: async () => ({ authorization: "Bearer garbage!!" }) },
  { name: "an empty bearer", mode: null, headers: async () => ({ authorization: "Bearer " }) },
  {
    name: "the client_auth pair under the Basic scheme",
    mode: null,
    headers: async (world) => ({
      authorization: `Basic ${base64(`${world.owner.clientId}:${world.owner.clientSecret}`)}`,
    }),
  },
  {
    name: "client_auth with a wrong client secret",
    mode: null,
    headers: async (world) => ({
      authorization: basicBearer(world.owner.clientId, `${world.owner.clientSecret}x`),
      "x-service": world.owner.service,
    }),
  },
  {
    name: "client_auth with an unknown client id",
    mode: null,
    headers: async (world) => ({
      authorization: basicBearer(
        world.owner.clientId.replace(/\.[0-9A-Z]{26}$/, ".01ARZ3NDEKTSV4RRFFQ69G5FAV"),
        world.owner.clientSecret,
      ),
      "x-service": world.owner.service,
    }),
  },
  {
    name: "client_auth with the client secret alone",
    mode: null,
    headers: async (world) => ({ authorization: `Bearer ${world.owner.clientSecret}` }),
  },
  {
    name: "client_auth",
    mode: "client",
    headers: async (world) => clientAuth(world.owner, { "x-service": world.owner.service }),
  },
  {
    name: "client_auth naming another merchant's service in x-service",
    mode: null,
    headers: async (world) => clientAuth(world.owner, { "x-service": world.other.service }),
  },
  {
    name: "client_auth of another merchant",
    mode: "client",
    crossTenant: true,
    headers: async (world) => clientAuth(world.other, { "x-service": world.other.service }),
  },
  {
    name: "merchant_auth (publishable key and client secret)",
    mode: "merchant",
    headers: async (world, request) => merchantAuth(world.owner, await secretFor(world, request)),
  },
  {
    name: "merchant_auth from a foreign Origin",
    mode: "merchant",
    foreignOrigin: true,
    headers: async (world, request) =>
      merchantAuth(world.owner, await secretFor(world, request), { origin: FOREIGN_ORIGIN }),
  },
  {
    name: "the publishable key alone",
    mode: null,
    headers: async (world) => ({ authorization: `Bearer ${world.owner.publishableKey}` }),
  },
  {
    name: "the client secret alone",
    mode: "intent_secret",
    headers: async (world, request) => ({ "x-client-secret": await secretFor(world, request) }),
  },
  {
    name: "merchant_auth with a forged client secret",
    mode: null,
    headers: async (world, request) =>
      merchantAuth(world.owner, `pa_${request.payment?.paymentId ?? randomUUID()}_secret_${"0".repeat(64)}`),
  },
  {
    name: "a forged client secret alone",
    mode: null,
    headers: async (_world, request) => ({
      "x-client-secret": `pa_${request.payment?.paymentId ?? randomUUID()}_secret_${"f".repeat(64)}`,
    }),
  },
  {
    name: "merchant_auth with another payment's client secret",
    mode: null,
    onlyWherePathNamesPayment: true,
    headers: async (world) => merchantAuth(world.owner, (await world.intent()).clientSecret),
  },
  {
    name: "another payment's client secret alone",
    mode: null,
    onlyWherePathNamesPayment: true,
    headers: async (world) => ({ "x-client-secret": (await world.intent()).clientSecret }),
  },
  {
    name: "merchant_auth with another merchant's publishable key",
    mode: null,
    headers: async (world, request) => merchantAuth(world.other, await secretFor(world, request)),
  },
  {
    name: "merchant_auth of another merchant and its own payment",
    mode: null,
    onlyWherePathNamesPayment: true,
    headers: async (world) => merchantAuth(world.other, (await world.intent({ merchant: world.other })).clientSecret),
  },
  {
    name: "user_auth (x-client-token)",
    mode: "user",
    headers: async (world) => userAuth(world.owner, world.session.accessToken),
  },
  {
    name: "user_auth as a bearer token",
    mode: "user",
    headers: async (world) => ({
      authorization: `Bearer ${world.session.accessToken}`,
      "x-service": world.owner.service,
    }),
  },
  { name: "a revoked access token", mode: null, headers: async (world) => userAuth(world.owner, world.revokedToken) },
  {
    name: "a rotated-out access token",
    mode: null,
    headers: async (world) => userAuth(world.owner, world.rotatedToken),
  },
  { name: "an expired access token", mode: null, headers: async (world) => userAuth(world.owner, world.expiredToken) },
  {
    name: "an unknown access token",
    mode: null,
    headers: async (world) => userAuth(world.owner, `cat_${randomUUID().replace(/-/g, "")}`),
  },
  {
    name: "a refresh token as access token",
    mode: null,
    headers: async (world) => userAuth(world.owner, world.session.refreshToken),
  },
  {
    name: "user_auth naming another merchant's service in x-service",
    mode: null,
    headers: async (world) => userAuth(world.other, world.session.accessToken),
  },
  {
    name: "another merchant's customer's token naming this service",
    mode: null,
    headers: async (world) => userAuth(world.owner, world.foreign.accessToken),
  },
  {
    name: "user_auth of another merchant's customer",
    mode: "user",
    crossTenant: true,
    headers: async (world) => userAuth(world.other, world.foreign.accessToken),
  },
];

export type Expectation = "refused" | "origin_refused" | "accepted" | "cross_tenant" | "not_applicable";

/** What the gateway must answer `variant` on a route accepting `accepts`, for this request. */
export function expectationFor(
  accepts: readonly Access[],
  variant: CredentialVariant,
  request: RouteRequest,
): Expectation {
  if (variant.onlyWherePathNamesPayment && !pathNamesPayment(request)) return "not_applicable";
  if (variant.mode === null || !accepts.includes(variant.mode)) return "refused";
  if (variant.foreignOrigin) return "origin_refused";
  if (variant.crossTenant) return "cross_tenant";
  return "accepted";
}

/** Sends `request` on the route `pattern` with `credentials`; the provider's signature when asked. */
export async function send(
  world: World,
  method: string,
  pattern: string,
  request: RouteRequest,
  credentials: Record<string, string>,
  options: { sign?: boolean } = {},
): Promise<ApiResponse> {
  const query = new URLSearchParams(request.query ?? {}).toString();
  const path = `${fillPattern(pattern, request.params ?? {})}${query ? `?${query}` : ""}`;
  const headers: Record<string, string> = { ...request.headers, ...credentials };
  const hasBody = request.body !== undefined && method !== "GET" && method !== "HEAD";
  const rawBody = hasBody ? JSON.stringify(request.body) : undefined;
  if (rawBody !== undefined) headers["content-type"] ??= "application/json";
  if (options.sign && rawBody !== undefined)
    Object.assign(headers, request.signature ? request.signature(rawBody) : await cardEventSignatures(rawBody));
  return world.api.call(method, path, { rawBody, headers });
}

/** Good credentials of the owner for each mode a route accepts. */
export async function acceptedCredentials(world: World, spec: RouteSpec, request: RouteRequest) {
  const byMode: Partial<Record<Access, () => Promise<Record<string, string>>>> = {
    client: async () => clientAuth(world.owner, { "x-service": world.owner.service }),
    merchant: async () => merchantAuth(world.owner, await secretFor(world, request)),
    user: async () => userAuth(world.owner, world.session.accessToken),
    intent_secret: async () => ({ "x-client-secret": await secretFor(world, request) }),
  };
  const result: { mode: Access; headers: Record<string, string> }[] = [];
  for (const mode of spec.accepts) {
    const make = byMode[mode];
    result.push({ mode, headers: make ? await make() : {} });
  }
  return result;
}
