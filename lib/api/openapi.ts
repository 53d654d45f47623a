import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from "zod-openapi";
import type { AuthMode } from "../auth/principal";
import { errorStatus, type ErrorName } from "../errors/api-error";
import { NOTIFICATION_TYPES, webhookPayload } from "../notifications/notification.schema";
import { errorNamesOf, isRateLimited, type Operation } from "./operations/operation";
import { apiIntroduction, ERROR_MEANINGS } from "./openapi-guide";
import { OPERATIONS } from "./operations";

const SECURITY_SCHEMES = {
  clientAuth: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "base64(clientId:clientSecret)",
    description:
      "client_auth, for your server: `Authorization: Bearer <base64(clientId:clientSecret)>` (not HTTP Basic).",
  },
  publishableKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "pk_service_…",
    description:
      "merchant_auth part 1: the publishable key as the Bearer token. Always together with `intentClientSecret`.",
  },
  intentClientSecret: {
    type: "apiKey",
    in: "header",
    name: "x-client-secret",
    description:
      "merchant_auth part 2 (and the only credential of card finalize): " +
      "the intent's clientSecret `pa_{paymentId}_secret_{hex}`.",
  },
  customerToken: {
    type: "apiKey",
    in: "header",
    name: "x-client-token",
    description: "user_auth: a customer access token (from `POST /api/v1/customer-access-token`).",
  },
  customerBearer: {
    type: "http",
    scheme: "bearer",
    description: "user_auth, alternatively: the customer access token as the Bearer token.",
  },
} as const;

const SECURITY_OF_MODE: Record<AuthMode, Record<string, string[]>[]> = {
  client: [{ clientAuth: [] }],
  merchant: [{ publishableKey: [], intentClientSecret: [] }],
  user: [{ customerToken: [] }, { customerBearer: [] }],
  intent_secret: [{ intentClientSecret: [] }],
};

const rateLimitHeaders = {
  "RateLimit-Policy": {
    description: 'IETF draft: the policy applied, e.g. `"secret";q=120;w=60`.',
    schema: { type: "string" },
  },
  RateLimit: { description: 'IETF draft: what remains, e.g. `"secret";r=37;t=12`.', schema: { type: "string" } },
} as const;

const errorDetail = z.object({ path: z.string(), message: z.string() }).meta({ id: "ErrorDetail" });

const errorEnvelopes = new Map<number, z.ZodType>();

/** One component per status (`Error409`), naming every error of that status; each response says which apply. */
function errorEnvelope(status: number) {
  const names = (Object.keys(errorStatus) as ErrorName[]).filter((name) => errorStatus[name] === status);
  const schema =
    errorEnvelopes.get(status) ??
    z
      .object({
        code: z.literal(status),
        status: z.literal("error"),
        message: z.string().meta({ description: "English, for a developer." }),
        error: z.object({
          name: z.enum(names as [ErrorName, ...ErrorName[]]),
          requestId: z.string().meta({ description: "Same as the `x-request-id` header." }),
          details: z
            .array(errorDetail)
            .optional()
            .meta({ description: "validation_error: one entry per failing rule." }),
        }),
      })
      .meta({
        id: `Error${status}`,
        description: names.map((name) => `\`${name}\`: ${ERROR_MEANINGS[name]}`).join("\n\n"),
      });
  errorEnvelopes.set(status, schema);
  return schema;
}

function successEnvelope(status: number, data: z.ZodType, extra: Record<string, z.ZodType> = {}) {
  return z.object({ code: z.literal(status), status: z.literal("success"), message: z.string(), data, ...extra });
}

function responsesOf(operation: Operation): ZodOpenApiResponsesObject {
  const limited = isRateLimited(operation);
  const status = operation.status ?? 200;
  const responses: ZodOpenApiResponsesObject = {};
  responses[String(status) as "200"] = operation.rawResponse
    ? {
        description: operation.rawResponse.description,
        content: {
          [operation.rawResponse.contentType]: {
            schema: z.string().meta({ contentMediaType: operation.rawResponse.contentType }),
          },
        },
      }
    : {
        description: operation.summary,
        ...(limited ? { headers: rateLimitHeaders } : {}),
        content: {
          "application/json": {
            schema: successEnvelope(status, operation.response as z.ZodType, operation.envelopeFields),
          },
        },
      };
  if (operation.idempotent) {
    const success = responses[String(status) as "200"] as { headers?: Record<string, unknown> };
    success.headers = {
      ...success.headers,
      "Idempotent-Replayed": {
        description: "`true` when this is the remembered answer of an earlier request with the same Idempotency-Key.",
        schema: { type: "string", enum: ["true"] },
      },
    };
  }
  const byStatus = new Map<number, ErrorName[]>();
  for (const name of errorNamesOf(operation))
    byStatus.set(errorStatus[name], [...(byStatus.get(errorStatus[name]) ?? []), name]);
  for (const [code, names] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, unknown> = {};
    if (code === 429) headers["Retry-After"] = { description: "Seconds to wait.", schema: { type: "integer" } };
    if (code === 405) headers.Allow = { description: "The methods this path serves.", schema: { type: "string" } };
    responses[String(code) as "400"] = {
      description: `${names.map((name) => `\`${name}\``).join(", ")} (see the Errors table).`,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { "application/json": { schema: errorEnvelope(code) } },
    } as ZodOpenApiResponsesObject["200"];
  }
  return responses;
}

function operationObject(operation: Operation): ZodOpenApiOperationObject {
  const pathNames = [...operation.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const modes = operation.auth ?? [];
  const header: Record<string, z.ZodType> = {};
  if (modes.includes("client") || modes.includes("user")) {
    header["x-service"] = z
      .string()
      .optional()
      .meta({
        description: operation.requireServiceHeader
          ? "Your service code. **Required** with client_auth and user_auth here; ignored with merchant_auth."
          : "Your service code; optional here, but when sent it must be the credential's service.",
      });
  }
  if (operation.idempotent) {
    header["Idempotency-Key"] = z
      .string()
      .max(255)
      .optional()
      .meta({ description: "Makes a retry safe: same key and body within 24 hours answer the first response." });
  }
  const declared = operation.headers as z.ZodObject | undefined;
  const security = modes.flatMap((mode) => SECURITY_OF_MODE[mode]);
  const modeName = (mode: AuthMode) => (mode === "intent_secret" ? "x-client-secret only" : `${mode}_auth`);
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: [
      operation.description ?? "",
      modes.length > 0 ? `**Auth:** ${modes.map(modeName).join(", ")}.` : "",
      operation.publicAccess ? `**Access:** ${operation.publicAccess}; no API credential.` : "",
      operation.sandboxOnly ? "**Sandbox only:** 404 in production." : "",
    ]
      .filter(Boolean)
      .join("\n\n"),
    tags: [operation.tag],
    security,
    requestParams: {
      ...(pathNames.length > 0
        ? { path: z.object(Object.fromEntries(pathNames.map((name) => [name, z.string()]))) }
        : {}),
      ...(operation.query ? { query: operation.query as z.ZodObject } : {}),
      header: z.object({ ...header, ...(declared?.shape ?? {}) }),
    },
    ...(operation.body
      ? { requestBody: { required: true, content: { "application/json": { schema: operation.body as z.ZodType } } } }
      : {}),
    responses: responsesOf(operation),
  };
}

function webhooks(): ZodOpenApiPathsObject {
  const signatureHeaders = z.object({
    "webhook-id": z.string().meta({ description: "The event id; the same on every retry. Deduplicate on it." }),
    "webhook-timestamp": z
      .string()
      .meta({ description: "Unix seconds of this attempt; reject old ones to stop replays." }),
    "webhook-signature": z.string().meta({
      description:
        'Space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` ' +
        "under the `whsec_` secret (Standard Webhooks).",
    }),
  });
  return Object.fromEntries(
    Object.entries(NOTIFICATION_TYPES).map(([type, remoteStatusCode]) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(".", "_")}`,
          summary: `${type} (remoteStatusCode ${remoteStatusCode})`,
          description:
            "POSTed to the service's webhook URL after the change commits. Answer 2xx within 10 s; " +
            "anything else is retried with growing delays for at least 24 hours. Redirects are not followed. " +
            "A payment link's payment also carries `paymentLinkId` in `data`.",
          requestParams: { header: signatureHeaders },
          requestBody: { required: true, content: { "application/json": { schema: webhookPayload } } },
          responses: { "200": { description: "Any 2xx acknowledges the delivery." } },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 document of every /api/v1 operation, built from the operations' own zod schemas. */
export function buildOpenApiDocument(operations: readonly Operation[] = OPERATIONS) {
  const paths: ZodOpenApiPathsObject = {};
  for (const operation of operations) {
    const path = operation.path.replace(/:(\w+)/g, "{$1}");
    paths[path] = { ...paths[path], [operation.method.toLowerCase()]: operationObject(operation) };
  }
  return createDocument(
    {
      openapi: "3.1.0",
      info: { title: "Payment Gateway API", version: "1.0.0", description: apiIntroduction(errorStatus) },
      servers: [
        {
          url: "http://localhost:3000",
          description: "A local sandbox (`npm start`); production has its own base address with the same paths.",
        },
      ],
      tags: [...new Set(operations.map((operation) => operation.tag))].sort().map((name) => ({ name })),
      paths,
      webhooks: webhooks(),
      components: { securitySchemes: SECURITY_SCHEMES as never },
    },
    {
      // `format: date-time` says it; zod's full ISO regex would only bloat every timestamp.
      override: ({ jsonSchema }) => {
        if (jsonSchema.format === "date-time") delete jsonSchema.pattern;
      },
    },
  );
}
