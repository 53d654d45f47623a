import { routing } from "../../lib/i18n/routing";
import { z } from "zod";
import { getConfig } from "../../lib/config";
import { getDb } from "../../lib/db/client";
import { isDatabaseUnavailable } from "../../lib/db/errors";
import { readCapped } from "../../lib/http/read-json-body";
import { withRequestScope } from "../../lib/http/request-scope";
import { logger } from "../../lib/log";
import { confirmCardSchema } from "./sandbox-card-confirm";
import { confirmFromBrowser, parseStripeForm, wireError } from "./stripe-simulator";
import { sandboxCardProvider } from "./sandbox-card-provider";
import { CardProviderError } from "../../lib/providers/card/card-provider-error";

/**
 * The sandbox provider's browser API: what the hosted card page's script calls with the
 * service's publishable key, as Stripe.js calls Stripe. It answers in the provider's own
 * shapes, not the gateway's envelope, and never echoes card details back or logs them.
 */
const confirmBody = z.object({
  client_secret: z.string().min(1).max(200),
  // Provider ids are a prefix and alphanumerics; anything else names nothing (a NUL would reach PostgreSQL).
  payment_method: z
    .string()
    .regex(/^pm_[A-Za-z0-9]{1,64}$/)
    .optional(),
  payment_method_data: z.object({ card: confirmCardSchema }).optional(),
  setup_future_usage: z.boolean().optional().default(false),
  return_url: z.string().min(1).max(2048),
  locale: z.enum(routing.locales).optional().default(routing.defaultLocale),
});

const json = (status: number, body: unknown, requestId: string) =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-request-id": requestId,
    },
  });

const providerError = (status: number, code: string, message: string, requestId: string) =>
  json(status, { error: { type: status === 402 ? "card_error" : "invalid_request_error", code, message } }, requestId);

/**
 * Stripe.js's own request (stripe-js-stand-in.ts sends it, as Stripe.js sends
 * it to api.stripe.com): form-encoded, the publishable key as `key`, answered as Stripe answers
 * (the simulator's code). The 3DS page takes the language of the return_url, the hosted page's.
 */
const stripeFormConfirm = z.object({
  key: z.string().regex(/^pk_[A-Za-z0-9_-]{1,200}$/),
  client_secret: z.string().min(1).max(200),
  payment_method: z
    .string()
    .regex(/^pm_[A-Za-z0-9]{1,64}$/)
    .optional(),
  payment_method_data: z
    .object({
      type: z.literal("card"),
      card: z.object({
        number: z.string().max(40),
        exp_month: z.string().regex(/^\d{1,2}$/),
        exp_year: z.string().regex(/^\d{4}$/),
        cvc: z.string().max(8),
      }),
    })
    .optional(),
  setup_future_usage: z.enum(["off_session", "on_session"]).optional(),
  return_url: z.string().min(1).max(2048),
});

async function confirmStripeForm(request: Request, intentId: string, requestId: string): Promise<Response> {
  const form = await readCapped(request);
  const body = stripeFormConfirm.safeParse(parseStripeForm(form));
  if (!body.success) {
    // Names the failing parameters only: their values may be card details.
    const names = [...new Set(body.error.issues.map((issue) => issue.path.join(".")))].join(", ");
    return providerError(
      body.error.issues.some((issue) => issue.path[0] === "key") ? 401 : 400,
      "parameter_invalid",
      `Invalid parameters: ${names}.`,
      requestId,
    );
  }
  const returnPath = URL.canParse(body.data.return_url) ? new URL(body.data.return_url).pathname : "";
  const locale = routing.locales.find((candidate) => returnPath.startsWith(`/${candidate}/`)) ?? routing.defaultLocale;
  const answer = await confirmFromBrowser(await getDb(), intentId, body.data, { anyReturnUrl: false, locale }).catch(
    wireError,
  );
  return json(answer.status, answer.body, requestId);
}

/**
 * POST {SANDBOX_PROVIDER_API}/payment_intents/:id/confirm: Stripe's form encoding, or the JSON this endpoint
 * took first.
 */
export function handleSandboxConfirm(request: Request, intentId: string): Promise<Response> {
  return withRequestScope(request, async ({ requestId }) => {
    if (!getConfig().isSandbox) return providerError(404, "resource_missing", "Unrecognized request URL.", requestId);
    if (!/^pi_[A-Za-z0-9]{1,64}$/.test(intentId))
      return providerError(404, "resource_missing", "No such payment_intent.", requestId);
    if (request.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded")) {
      try {
        return await confirmStripeForm(request, intentId, requestId);
      } catch (error) {
        if (isDatabaseUnavailable(error))
          return providerError(503, "api_error", "The provider is briefly unavailable.", requestId);
        logger.error({ err: error, requestId }, "sandbox card provider failed");
        return providerError(400, "parameter_invalid", "The body must be a form of at most 64 KiB.", requestId);
      }
    }
    const publishableKey = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    if (!publishableKey)
      return providerError(401, "authentication_required", "No publishable key provided.", requestId);
    let raw: unknown;
    try {
      raw = JSON.parse(await readCapped(request));
    } catch {
      return providerError(400, "parameter_invalid", "The body must be JSON of at most 64 KiB.", requestId);
    }
    const body = confirmBody.safeParse(raw);
    // Names the failing parameters only: their values may be card details.
    if (!body.success) {
      const names = [...new Set(body.error.issues.map((issue) => issue.path.join(".")))].join(", ");
      return providerError(400, "parameter_invalid", `Invalid parameters: ${names}.`, requestId);
    }
    const { card } = body.data.payment_method_data ?? {};
    const paymentMethod = card ? { card } : body.data.payment_method ? { id: body.data.payment_method } : null;
    if (!paymentMethod)
      return providerError(400, "parameter_missing", "Give payment_method or payment_method_data.", requestId);
    try {
      const result = await sandboxCardProvider.confirmPaymentIntent(await getDb(), {
        intentId,
        publishableKey,
        clientSecret: body.data.client_secret,
        paymentMethod,
        setupFutureUsage: body.data.setup_future_usage,
        returnUrl: body.data.return_url,
        locale: body.data.locale,
      });
      return json(
        200,
        {
          id: result.id,
          object: "payment_intent",
          status: result.status,
          payment_method: result.paymentMethodId,
          last_payment_error: result.lastErrorCode ? { code: result.lastErrorCode } : null,
          next_action: result.redirectUrl
            ? { type: "redirect_to_url", redirect_to_url: { url: result.redirectUrl } }
            : null,
        },
        requestId,
      );
    } catch (error) {
      if (error instanceof CardProviderError)
        return providerError(error.httpStatus, error.code, error.message, requestId);
      if (isDatabaseUnavailable(error))
        return providerError(503, "api_error", "The provider is briefly unavailable.", requestId);
      logger.error({ err: error, requestId }, "sandbox card provider failed");
      return providerError(500, "api_error", "An unexpected error occurred.", requestId);
    }
  });
}
