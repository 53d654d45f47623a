import type { z } from "zod";
import {
  authenticate,
  authenticateWithPathPayment,
  clientAuthInStatement,
  type AuthenticateOptions,
  type ClientAuthInStatement,
} from "../auth/authenticate";
import type { AuthMode, ClientPrincipal, PrincipalOf } from "../auth/principal";
import { getDb, type Db } from "../db/client";
import type { PaymentRow } from "../db/payment-record";
import { claimIdempotencyKey, NO_IDEMPOTENCY, type BeforeCommit } from "../idempotency/claim-idempotency-key";
import { REPLAYED_HEADER } from "../idempotency/idempotency.schema";
import { ApiError } from "../errors/api-error";
import { SERVES_BROWSERS, servesBrowsers } from "./cors";
import { readJsonBody } from "./read-json-body";
import { withRequestScope, type RequestScope } from "./request-scope";
import { inSpan } from "../tracing/spans";
import { successResponse, toErrorResponse, zodDetails } from "./respond";

type RouteContext = { params: Promise<Record<string, string | string[]>> };
type Schema = z.ZodType;
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
/** What a handler may answer as `data`: the response schema's shape, when the spec names one. */
type DataOf<R> = R extends z.ZodType ? z.input<R> : unknown;

export interface EndpointSpec<M extends AuthMode, B, Q, H, R = undefined, A = never> {
  /** Auth modes the endpoint accepts; omit for a public endpoint. */
  auth?: readonly M[];
  /** Interface: x-service is required for client_auth and user_auth here. */
  requireServiceHeader?: boolean;
  body?: B;
  query?: Q;
  headers?: H;
  status?: 200 | 201 | 202;
  /** Contract 5: honour an Idempotency-Key header; the name scopes keys to this endpoint. */
  idempotent?: string;
  /** The schema of `data` in the success envelope; the handler's answer is typed by it. */
  response?: R;
  /**
   * The handler reads the payment of the path's `:id`: the auth statement reads it too where it can
   * (path-payment.ts).
   */
  readsPathPayment?: boolean;
  /**
   * The answer to the domain's result, rendered by endpoint() (`data` of the response schema):
   * the handler then returns the result itself, and an idempotent request's answer is stored
   * from it, in the domain's transaction where the domain calls `idempotency.storeAnswer`.
   */
  answer?(result: A): EndpointResult<DataOf<R>>;
}

export interface EndpointContext<M extends AuthMode, B, Q, H, A = never> {
  db: Db;
  request: Request;
  requestId: string;
  params: Record<string, string>;
  principal: [M] extends [never] ? undefined : PrincipalOf<M>;
  body: Parsed<B>;
  query: Parsed<Q>;
  headers: Parsed<H>;
  idempotency: {
    /**
     * For the domain operation to call with its result before it commits: the answer (spec.answer)
     * is stored in that transaction. Undefined without an Idempotency-Key.
     */
    storeAnswer?: BeforeCommit<A>;
    /** The key's name for a provider operation (IdempotencyScope.operationKey); undefined without a key. */
    operationKey?: string;
  };
  /**
   * With `readsPathPayment`: the path's payment as auth read it (null: none), or undefined when
   * auth did not read it.
   */
  pathPayment: PaymentRow | null | undefined;
}

export interface EndpointResult<D = unknown> {
  data: D;
  message: string;
  status?: number;
  headers?: Record<string, string>;
  /** Fields the envelope carries beside `data` (e.g. `hasMore` of a list). */
  envelope?: Record<string, unknown>;
}

/**
 * Composes the steps every route shares: request id, auth, body, validation, envelope.
 * The handler only calls the domain and names what it returns.
 */
export function endpoint<
  M extends AuthMode = never,
  B = undefined,
  Q = undefined,
  H = undefined,
  R = undefined,
  A = never,
>(
  spec: EndpointSpec<M, B, Q, H, R, A>,
  handler: (context: EndpointContext<M, B, Q, H, A>) => Promise<[A] extends [never] ? EndpointResult<DataOf<R>> : A>,
) {
  const browsers = servesBrowsers(spec.auth);
  // An operation of the registry (lib/api/operations) names its path template and its id: the
  // request's metric label and span name, and the domain operation's span.
  const { path: route, operationId } = spec as { path?: string; operationId?: string };
  const operationSpan = `operation ${operationId ?? route ?? "endpoint"}`;
  const handle = (request: Request, routeContext: RouteContext): Promise<Response> =>
    withRequestScope(request, (scope) => serve(request, routeContext, scope), { browsers, route });
  if (browsers) Object.defineProperty(handle, SERVES_BROWSERS, { value: true });
  return handle;

  async function serve(
    request: Request,
    routeContext: RouteContext,
    { requestId, rateLimit }: RequestScope,
  ): Promise<Response> {
    try {
      const params = flattenParams(await routeContext.params);
      const db = await getDb();
      const authOptions = spec.auth && {
        modes: spec.auth,
        paymentId: params.id ?? params.paymentActionId,
        requireServiceHeader: spec.requireServiceHeader,
        rateLimit,
        readPathPayment: spec.readsPathPayment && params.id !== undefined,
      };
      const inStatement =
        authOptions && withClientAuthInStatement.has(spec) ? clientAuthInStatement(request, authOptions) : null;
      const authenticated =
        authOptions && !inStatement ? await authenticateWithPathPayment(db, request, authOptions) : undefined;
      const principal = authenticated?.principal;
      let rawBody: unknown;
      let input: ReturnType<typeof parseInputs>;
      try {
        rawBody = spec.body ? await readJsonBody(request) : undefined;
        input = parseInputs(spec, request, rawBody);
      } catch (error) {
        // Auth answers before the body: a refused credential is a 401 (or 429) whatever was sent.
        if (authOptions && inStatement) await authenticate(db, request, authOptions);
        throw error;
      }
      const defaultStatus = spec.status ?? 200;
      const claim =
        spec.idempotent && principal
          ? await claimIdempotencyKey(db, {
              request,
              principal,
              endpoint: spec.idempotent,
              body: rawBody,
              defaultStatus,
            })
          : NO_IDEMPOTENCY;
      if (claim.kind === "replay") {
        const { error, ...response } = claim.response;
        const replayed = { [REPLAYED_HEADER]: "true" };
        if (error)
          return toErrorResponse(new ApiError(error.name, response.message, error.details), requestId, replayed);
        return successResponse({ requestId, ...response, headers: replayed });
      }
      const { storeInTransaction, operationKey } = claim.scope;
      const answer = spec.answer;
      const storeAnswer: BeforeCommit<A> | undefined =
        answer && storeInTransaction
          ? (tx, domainResult) => storeInTransaction(tx, answer.call(spec, domainResult))
          : undefined;
      const returned = await inSpan(operationSpan, () =>
        handler({
          db,
          request,
          requestId,
          params,
          principal: principal as EndpointContext<M, B, Q, H, A>["principal"],
          ...input,
          idempotency: { storeAnswer, operationKey },
          pathPayment: authenticated?.pathPayment,
          ...(withClientAuthInStatement.has(spec) && {
            clientAuth: inStatement
              ? {
                  inStatement,
                  authenticate: () => authenticate(db, request, authOptions as AuthenticateOptions<"client">),
                }
              : { principal },
          }),
        } as EndpointContext<M, B, Q, H, A>),
      ).catch(async (error: unknown) => {
        if (claim.kind === "owned") await claim.endWithError(db, error);
        throw error;
      });
      // Rendered after the handler: a render that throws must still end the claim (its lease
      // timer included), or the key would answer 409 in progress for ever.
      let result: EndpointResult<DataOf<R>>;
      try {
        result = answer ? answer.call(spec, returned as A) : (returned as EndpointResult<DataOf<R>>);
      } catch (error) {
        if (claim.kind === "owned") await claim.endWithError(db, error);
        throw error;
      }
      if (claim.kind === "owned") {
        await claim.settle(db, { status: result.status ?? defaultStatus, message: result.message, data: result.data });
      }
      return successResponse({ requestId, status: result.status ?? defaultStatus, ...result });
    } catch (error) {
      return toErrorResponse(error, requestId);
    }
  }
}

/**
 * client_auth as `endpointWithClientAuthInStatement` hands it: judged already, or to judge inside
 * the operation's statement.
 */
export type ClientAuth =
  | { principal: ClientPrincipal; inStatement?: undefined }
  | { inStatement: ClientAuthInStatement; authenticate: () => Promise<ClientPrincipal>; principal?: undefined };

/** The specs of `endpointWithClientAuthInStatement`. */
const withClientAuthInStatement = new WeakSet<object>();

/**
 * `endpoint` for a client_auth operation that judges the credential inside its own statement
 * (authenticate.ts `clientAuthInStatement`; create: auth and insert in one round trip,
 * lib/api/create-with-client-auth.ts). The handler gets `clientAuth` instead of a principal: already
 * authenticated when the request cannot be judged in the statement (another credential kind,
 * the Redis store), else the credential its operation must judge. A body that fails validation
 * is authenticated first and never reaches the handler, so a refused credential is a 401
 * whatever was sent; the price is that such a body (at most 64 KiB) is read and parsed before
 * the credential is judged. Not for idempotent endpoints, whose key is claimed before the
 * handler runs.
 */
export function endpointWithClientAuthInStatement<B = undefined, Q = undefined, H = undefined, R = undefined>(
  spec: EndpointSpec<"client", B, Q, H, R>,
  handler: (
    context: Omit<EndpointContext<"client", B, Q, H>, "principal"> & { clientAuth: ClientAuth },
  ) => Promise<EndpointResult<DataOf<R>>>,
) {
  if (spec.idempotent) throw new Error("an idempotent endpoint claims its key with a principal, before its statement");
  const own = { ...spec };
  withClientAuthInStatement.add(own);
  return endpoint(own, (context) => handler(context as typeof context & { clientAuth: ClientAuth }));
}

/** Validates body, query and headers together so `details` lists every failing field. */
function parseInputs(spec: { body?: unknown; query?: unknown; headers?: unknown }, request: Request, rawBody: unknown) {
  const details = [];
  const output: Record<string, unknown> = {};
  const query = queryOf(request.url);
  // A `%00` in the query decodes to U+0000, which PostgreSQL text cannot hold (a 500 otherwise).
  for (const [name, value] of Object.entries(query)) {
    if (name.includes("\0") || value.includes("\0")) {
      details.push({ path: `query.${name.replace(/\0/g, "")}`, message: "must not contain the character U+0000" });
    }
  }
  for (const part of ["body", "query", "headers"] as const) {
    const schema = spec[part] as Schema | undefined;
    if (!schema) continue;
    const source = part === "body" ? rawBody : part === "query" ? query : headersNamedBy(schema, request.headers);
    const result = schema.safeParse(source);
    if (result.success) output[part] = result.data;
    else details.push(...zodDetails(result.error, part === "body" ? undefined : part));
  }
  if (details.length > 0) throw new ApiError("validation_error", "The request is invalid.", details);
  return output as { body: never; query: never; headers: never };
}

/**
 * The headers a headers schema names (every one is a `z.object`, which drops the others
 * anyway): a few `get`s instead of copying, lower-casing and sorting every header of the request.
 */
function headersNamedBy(schema: Schema, headers: Headers): Record<string, string> {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (!shape) return Object.fromEntries(headers);
  const named: Record<string, string> = {};
  for (const name in shape) {
    const value = headers.get(name);
    if (value !== null) named[name] = value;
  }
  return named;
}

/** The query's parameters; a URL without one (most requests) is not parsed again for nothing. */
function queryOf(url: string): Record<string, string> {
  return url.includes("?") ? Object.fromEntries(new URL(url).searchParams) : {};
}

function flattenParams(params: Record<string, string | string[]> | undefined): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(params ?? {})) flat[key] = Array.isArray(value) ? value.join("/") : value;
  return flat;
}
