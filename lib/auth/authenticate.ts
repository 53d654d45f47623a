import type { Db } from "../db/client";
import { ApiError, invalidCredentials } from "../errors/api-error";
import { noteRequestPrincipal } from "../log";
import { isOriginAllowed } from "../urls/allowed-origins";
import { RequestRateLimit } from "../rate-limit/request-rate-limit";
import { rateLimitBackend } from "../rate-limit/store";
import {
  malformedCredentialMessage,
  MERCHANT_PAIR_INCOMPLETE,
  rejectedCredentialMessage,
  wrongModeMessage,
} from "./credential-hints";
import { detectCredential, type Credential } from "./detect-credential";
import type { WithPathPayment } from "./path-payment";
import type { AuthMode, ClientPrincipal, Principal, PrincipalOf, ServiceContext } from "./principal";
import {
  clientLookupParameters,
  principalFromClientLookup,
  resolveClient,
  type ClientLookupRow,
} from "./resolve-client";
import { resolveIntentSecret } from "./resolve-intent-secret";
import { resolveMerchant } from "./resolve-merchant";
import { resolveUserToken } from "./resolve-user-token";

export interface AuthenticateOptions<M extends AuthMode> {
  modes: readonly M[];
  /** The `:id` of the path, which a client secret must name. */
  paymentId?: string;
  /** Interface: x-service is required for client_auth and user_auth on some endpoints. */
  requireServiceHeader?: boolean;
  /** Receives the request's rate limit outcome for its headers; the limits apply without it too. */
  rateLimit?: RequestRateLimit;
  /**
   * The auth statement reads the payment `paymentId` names too (client, merchant and user
   * credentials: path-payment.ts).
   */
  readPathPayment?: boolean;
}

/**
 * Resolves the request's credential into a principal of one of the accepted modes. A 401
 * says how a credential must be sent when the request's shape is wrong (scheme, encoding,
 * mode); a well-formed credential that is refused always gets the same message, so a caller
 * never learns whether it exists (credential-hints.ts).
 */
export async function authenticate<M extends AuthMode>(
  db: Db,
  request: Request,
  options: AuthenticateOptions<M>,
): Promise<PrincipalOf<M>> {
  return (await authenticateWithPathPayment(db, request, options)).principal;
}

/**
 * `authenticate`, answering the path's payment too when `readPathPayment` asked for it and the
 * credential's statement could read it.
 */
export async function authenticateWithPathPayment<M extends AuthMode>(
  db: Db,
  request: Request,
  options: AuthenticateOptions<M>,
): Promise<WithPathPayment<PrincipalOf<M>>> {
  const credential = detectCredential(request.headers);
  if (!credential) throw invalidCredentials(malformedCredentialMessage(request.headers, options.modes));
  if (!(options.modes as readonly AuthMode[]).includes(credential.mode)) {
    throw invalidCredentials(wrongModeMessage(credential, options.modes));
  }
  if (credential.mode === "merchant" && !credential.clientSecret) throw invalidCredentials(MERCHANT_PAIR_INCOMPLETE);
  try {
    const { principal, pathPayment } = await resolveCredential(db, credential, options);
    return { principal: admit(request, options, principal) as PrincipalOf<M>, pathPayment };
  } catch (error) {
    throw refusal(error, request.headers);
  }
}

/**
 * client_auth judged inside an operation's own statement, which looks the credential up and
 * charges its limit with `parameters` and writes nothing unless the client is admitted
 * (resolve-client.ts `admittedClientCtes`); `principalOf` then answers exactly as `authenticate`
 * would. Null when this request must authenticate the usual way first: another credential
 * kind, a malformed one, the Redis limit store, or a required x-service header missing.
 */
export function clientAuthInStatement(
  request: Request,
  options: AuthenticateOptions<AuthMode>,
): ClientAuthInStatement | null {
  if (!options.modes.includes("client") || rateLimitBackend() !== "postgres") return null;
  const credential = detectCredential(request.headers);
  if (credential?.mode !== "client") return null;
  // An empty x-service is no header at all to checkServiceHeader.
  const serviceHeader = request.headers.get("x-service") || null;
  if (options.requireServiceHeader && serviceHeader === null) return null;
  const rateLimit = options.rateLimit ?? new RequestRateLimit();
  const parameters = { ...clientLookupParameters(credential, rateLimit), serviceHeader };
  return {
    parameters,
    principalOf(found) {
      try {
        return admit(
          request,
          options,
          principalFromClientLookup(credential, rateLimit, parameters, found),
        ) as ClientPrincipal;
      } catch (error) {
        throw refusal(error, request.headers);
      }
    },
  };
}

export interface ClientAuthInStatement {
  parameters: ReturnType<typeof clientLookupParameters> & { serviceHeader: string | null };
  /**
   * The statement's credential and limit columns in; the principal out, or the 429 / 401 / 400
   * authenticate would throw.
   */
  principalOf(found: ClientLookupRow | undefined): ClientPrincipal;
}

/** The checks after the credential itself: the x-service header, the browser origin. */
function admit(request: Request, options: AuthenticateOptions<AuthMode>, principal: Principal): Principal {
  if (principal.mode === "client" || principal.mode === "user") {
    checkServiceHeader(request.headers, principal.service, options.requireServiceHeader ?? false);
  }
  noteRequestPrincipal(principal);
  if (principal.mode === "merchant") checkOrigin(request.headers, principal.service);
  return principal;
}

/** A well-formed credential that is refused always gets the same message (credential-hints.ts). */
function refusal(error: unknown, headers: Headers): unknown {
  if (error instanceof ApiError && error.errorName === "invalid_credentials")
    return invalidCredentials(rejectedCredentialMessage(headers));
  return error;
}

/**
 * One resolver per credential kind. Each charges the limit of what the credential names
 * (contract section 6) before judging it, so failed attempts count too, and folds that charge
 * into its lookup's statement (lib/rate-limit/lookup-with-limits.ts): auth is one round trip.
 */
function resolveCredential(
  db: Db,
  credential: Credential,
  options: AuthenticateOptions<AuthMode>,
): Promise<WithPathPayment<Principal>> {
  const { paymentId: pathPaymentId } = options;
  const readPaymentId = options.readPathPayment ? pathPaymentId : undefined;
  const rateLimit = options.rateLimit ?? new RequestRateLimit();
  switch (credential.mode) {
    case "client":
      return resolveClient(db, credential, rateLimit, readPaymentId);
    case "merchant":
      return resolveMerchant(db, credential, pathPaymentId, rateLimit, readPaymentId);
    case "user":
      return resolveUserToken(db, credential, rateLimit, readPaymentId);
    case "intent_secret":
      return resolveIntentSecret(db, credential, pathPaymentId, rateLimit).then((principal) => ({ principal }));
  }
}

function checkServiceHeader(headers: Headers, service: ServiceContext, required: boolean) {
  const sent = headers.get("x-service");
  if (!sent) {
    if (required) {
      throw new ApiError("validation_error", "The x-service header is required.", [
        { path: "x-service", message: "Required" },
      ]);
    }
    return;
  }
  if (sent !== service.code) throw invalidCredentials();
}

function checkOrigin(headers: Headers, service: ServiceContext) {
  const origin = headers.get("origin");
  if (origin === null) return; // A server-side call: no browser origin to police.
  if (!isOriginAllowed(normalizeOrigin(origin) ?? "", service.allowedOrigins)) {
    throw new ApiError("origin_not_allowed", "This Origin is not on the service's allow-list.");
  }
}

function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.origin;
  } catch {
    return null;
  }
}
