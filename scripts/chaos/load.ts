import { randomInt, randomUUID } from "node:crypto";
import { basicBearer } from "../../lib/auth/detect-credential";
import { getDb } from "../../lib/db/client";
import type { OnboardedMerchant } from "../../lib/merchants/onboard-merchant.schema";
import { completeCardPayment } from "../../lib/payment-methods/card/hosted/complete-card-payment";
import { getCardPage } from "../../lib/hosted/views/card-page-view";
import { submitPaymentOtp } from "../../lib/payment-methods/wallet/hosted/submit-payment-otp";
import { sandboxCardProvider } from "../../simulators/card/sandbox-card-provider";

/**
 * The chaos run's mixed load: virtual merchants' servers and buyers doing what real ones do,
 * against two gateway processes that keep being killed. Every mutating call carries an
 * Idempotency-Key (or, for create, the same actionId) and is retried with it after a 503, a
 * 409 request_in_progress or a connection the killed process dropped: the way a correct
 * client recovers. The buyers' hosted-page steps (OTP, card page, 3DS challenge) run the
 * pages' own domain operations on the database.
 */
export interface Answer {
  status: number;
  name?: string;
  body: any;
  /** A 303's Location (hosted forms and the redirect return answer with one). */
  location?: string;
}

export interface LoadStats {
  sent: number;
  byStatus: Map<string, number>;
  /** Attempts whose process died under them (no HTTP answer). */
  dropped: number;
  /** Every 5xx with when it came: judged against the database restart window afterwards. */
  serverErrors: { at: number; status: number; name?: string; path: string; requestId?: string }[];
  scenarios: Map<string, number>;
  /** Steps a scenario gave up on after its retries (the database or a process stayed away). */
  abandoned: number;
  /** Unexpected answers (a 4xx the scenario did not expect), kept for the printout. */
  surprises: string[];
  /** What the redirect rails' buyers did, per rail ("SATIM paid, never came back" -> n). */
  buyers: Map<string, number>;
}

export function newStats(): LoadStats {
  return {
    sent: 0,
    byStatus: new Map(),
    dropped: 0,
    serverErrors: [],
    scenarios: new Map(),
    abandoned: 0,
    surprises: [],
    buyers: new Map(),
  };
}

export const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ChaosClient {
  private next = 0;
  constructor(
    private readonly gateways: string[],
    readonly stats: LoadStats,
    private readonly deadline: () => boolean,
  ) {}

  /** One call, retried (same key, other gateway) while the answer says "again later". */
  async call(
    method: string,
    path: string,
    options: { body?: unknown; form?: URLSearchParams; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    for (let attempt = 0; attempt < 60; attempt += 1) {
      const base = this.gateways[this.next++ % this.gateways.length]!;
      let answer: Answer;
      this.stats.sent += 1;
      try {
        const contentType = options.form
          ? "application/x-www-form-urlencoded"
          : options.body !== undefined
            ? "application/json"
            : undefined;
        const response = await fetch(`${base}${path}`, {
          method,
          headers: { ...(contentType ? { "content-type": contentType } : {}), ...options.headers },
          body: options.form
            ? options.form.toString()
            : options.body !== undefined
              ? JSON.stringify(options.body)
              : undefined,
          redirect: "manual",
          signal: AbortSignal.timeout(30_000),
        });
        const text = await response.text();
        let body: any = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          // Not JSON.
        }
        answer = {
          status: response.status,
          name: body?.error?.name,
          body,
          location: response.headers.get("location") ?? undefined,
        };
      } catch {
        this.stats.dropped += 1;
        await sleep(200);
        continue;
      }
      bump(this.stats.byStatus, answer.name ? `${answer.status} ${answer.name}` : String(answer.status));
      if (answer.status >= 500) {
        this.stats.serverErrors.push({
          at: Date.now(),
          status: answer.status,
          name: answer.name,
          path,
          requestId: answer.body?.error?.requestId,
        });
      }
      const again = answer.status === 503 || answer.name === "request_in_progress" || answer.name === "rate_limited";
      if (!again) return answer;
      if (this.deadline() && attempt > 20) return answer;
      // A key whose request died with its process stays in progress until its lease (15 s) runs out.
      await sleep(answer.status === 503 ? 1000 : answer.name === "request_in_progress" ? 1500 : 300);
    }
    this.stats.abandoned += 1;
    throw new StepAbandoned(`${method} ${path}`);
  }
}

export class StepAbandoned extends Error {}

/** A hosted-page step on the database: retried while the database is away. */
export async function onPage<T>(stats: LoadStats, step: () => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    try {
      return await step();
    } catch (error) {
      if ((error as { name?: string }).name === "ApiError") throw error;
      await sleep(1000);
    }
  }
  stats.abandoned += 1;
  throw new StepAbandoned("hosted page step");
}

export function clientHeaders(merchant: OnboardedMerchant, extra: Record<string, string> = {}) {
  return { authorization: basicBearer(merchant.clientId, merchant.clientSecret), ...extra };
}
export const serverHeaders = (merchant: OnboardedMerchant, extra: Record<string, string> = {}) =>
  clientHeaders(merchant, { "x-service": merchant.service, "x-platform": "API", ...extra });
export const key = () => ({ "idempotency-key": randomUUID() });

export interface Ctx {
  client: ChaosClient;
  merchant: OnboardedMerchant;
  stats: LoadStats;
}

export function expectStatus(ctx: Ctx, what: string, answer: Answer, ...ok: number[]): boolean {
  if (ok.includes(answer.status)) return true;
  const details = answer.body?.error?.details;
  const detailsText = details ? ` ${JSON.stringify(details).slice(0, 200)}` : "";
  const message = `${answer.body?.message ?? answer.body?.error?.message ?? ""}${detailsText}`;
  if (ctx.stats.surprises.length < 50)
    ctx.stats.surprises.push(`${what}: ${answer.status} ${answer.name ?? answer.body?.error?.code ?? ""} ${message}`);
  return false;
}

/** A hosted-page step refused (an ApiError): expected now and then (settled meanwhile), kept for the printout. */
export function note(ctx: Ctx, what: string, error: unknown): null {
  if (ctx.stats.surprises.length < 50) ctx.stats.surprises.push(`${what}: ${(error as Error).message}`);
  return null;
}

export async function create(
  ctx: Ctx,
  overrides: Record<string, unknown> = {},
): Promise<{ paymentId: string; clientSecret: string } | null> {
  const body = {
    actionId: `chaos-${randomUUID()}`,
    amount: randomInt(10, 900) + randomInt(0, 100) / 100,
    actionCurrencyCode: "DZD",
    actionCountryCode: "DZA",
    userId: `+2135${String(randomInt(10_000_000, 10_000_400))}`,
    ...overrides,
  };
  const path = `/api/v1/payments/intents?countryCode=${body.actionCountryCode}`;
  // Sent twice on purpose now and then: create is idempotent on actionId.
  const answer = await ctx.client.call("POST", path, { body, headers: clientHeaders(ctx.merchant) });
  if (randomInt(10) === 0) await ctx.client.call("POST", path, { body, headers: clientHeaders(ctx.merchant) });
  if (!expectStatus(ctx, "create", answer, 201, 200)) return null;
  return answer.body.data;
}

export async function proceed(ctx: Ctx, paymentId: string, method: string) {
  const headers = serverHeaders(ctx.merchant, key());
  const answer = await ctx.client.call("POST", `/api/v1/payments/intents/${paymentId}/proceed`, {
    body: { paymentMethodCode: method },
    headers,
  });
  // A retry with the same key answers the same (replayed) result.
  if (randomInt(8) === 0)
    await ctx.client.call("POST", `/api/v1/payments/intents/${paymentId}/proceed`, {
      body: { paymentMethodCode: method },
      headers,
    });
  return expectStatus(ctx, "proceed", answer, 200) ? answer.body.data : null;
}

export async function poll(ctx: Ctx, paymentId: string, until: (code: number) => boolean, tries = 20): Promise<number> {
  let code = 0;
  for (let attempt = 0; attempt < tries; attempt += 1) {
    const answer = await ctx.client.call("GET", `/api/v1/payments/intents/${paymentId}/check`, {
      headers: serverHeaders(ctx.merchant),
    });
    code = answer.body?.data?.statusCode ?? 0;
    if (until(code)) return code;
    await sleep(300);
  }
  return code;
}

export const tokenOf = (payUrl: string) => new URL(payUrl).searchParams.get("token")!;

async function payWallet(ctx: Ctx, captureMethod: "DIRECT" | "RESERVATION", wrongCodes = false) {
  const intent = await create(ctx, { captureMethod });
  if (!intent) return null;
  const proceeded = await proceed(ctx, intent.paymentId, "WALLET_V2");
  if (!proceeded?.metadata?.payUrl) return null;
  const token = tokenOf(proceeded.metadata.payUrl);
  const db = await onPage(ctx.stats, () => getDb());
  const codes = wrongCodes ? ["000000", "111111", "222222", "333333", "444444"] : ["123456"];
  for (const code of codes) {
    await onPage(ctx.stats, () => submitPaymentOtp(db, { paymentId: intent.paymentId, token, code })).catch(
      (error: unknown) => note(ctx, "otp", error),
    );
  }
  await poll(ctx, intent.paymentId, (code) => code !== 12 && code !== 1, 3);
  return intent.paymentId;
}

export async function refundConcurrently(ctx: Ctx, paymentId: string) {
  const check = await ctx.client.call("GET", `/api/v1/payments/intents/${paymentId}/check`, {
    headers: serverHeaders(ctx.merchant),
  });
  const amount = Number(check.body?.data?.amount ?? 0);
  if (!amount) return;
  const parts = randomInt(2, 4);
  const each = Math.max(0.01, Math.floor((amount / (parts + 1)) * 100) / 100);
  await Promise.all(
    Array.from({ length: parts }, async () => {
      const headers = clientHeaders(ctx.merchant, key());
      const body = { description: "chaos partial refund", amount: each };
      const answer = await ctx.client.call("POST", `/api/v1/payments/${paymentId}/refund`, { body, headers });
      expectStatus(ctx, "refund", answer, 200, 400, 409);
      // The merchant's retry with the same key: replayed, never refunded twice.
      if (randomInt(3) === 0) await ctx.client.call("POST", `/api/v1/payments/${paymentId}/refund`, { body, headers });
    }),
  );
  if (randomInt(3) === 0) {
    const rest = await ctx.client.call("POST", `/api/v1/payments/${paymentId}/refund`, {
      body: { description: "chaos refund of the rest" },
      headers: clientHeaders(ctx.merchant, key()),
    });
    expectStatus(ctx, "full refund", rest, 200, 400, 409);
  }
}

const scenarios: Record<string, (ctx: Ctx) => Promise<void>> = {
  async walletDirect(ctx) {
    const paymentId = await payWallet(ctx, "DIRECT");
    if (paymentId && randomInt(2) === 0) await refundConcurrently(ctx, paymentId);
  },
  async walletWrongCodes(ctx) {
    await payWallet(ctx, "DIRECT", true);
  },
  async reservation(ctx) {
    const paymentId = await payWallet(ctx, "RESERVATION");
    if (!paymentId) return;
    const choice = randomInt(3);
    const headers = clientHeaders(ctx.merchant, key());
    if (choice === 2) {
      expectStatus(
        ctx,
        "release",
        await ctx.client.call("POST", `/api/v1/payments/intents/${paymentId}/release`, { body: {}, headers }),
        200,
        409,
      );
      return;
    }
    const check = await ctx.client.call("GET", `/api/v1/payments/intents/${paymentId}/check`, {
      headers: serverHeaders(ctx.merchant),
    });
    const amount = Number(check.body?.data?.amount ?? 0);
    const body = choice === 1 && amount > 1 ? { amount: Math.floor(amount * 50) / 100 } : {};
    const captured = await ctx.client.call("POST", `/api/v1/payments/intents/${paymentId}/capture`, { body, headers });
    if (expectStatus(ctx, "capture", captured, 200, 409) && randomInt(2) === 0)
      await refundConcurrently(ctx, paymentId);
  },
  async qr(ctx) {
    const intent = await create(ctx, { transactionType: "QR_CODE" });
    if (!intent || !(await proceed(ctx, intent.paymentId, "WALLET_V2"))) return;
    const outcome = randomInt(5) === 0 ? "decline" : "approve";
    const answered = await ctx.client.call("POST", `/api/v1/sandbox/payments/${intent.paymentId}/qr`, {
      body: { outcome },
      headers: clientHeaders(ctx.merchant),
    });
    expectStatus(ctx, "qr answer", answered, 200, 409);
    await poll(ctx, intent.paymentId, (code) => code === 2 || code === 3);
  },
  async card(ctx) {
    const reserve = randomInt(3) === 0;
    const intent = await create(ctx, { captureMethod: reserve ? "RESERVATION" : "DIRECT" });
    if (!intent) return;
    const proceeded = await proceed(ctx, intent.paymentId, "CARD_PROVIDER");
    if (!proceeded?.metadata?.payUrl) return;
    const token = tokenOf(proceeded.metadata.payUrl);
    const db = await onPage(ctx.stats, () => getDb());
    const page = await onPage(ctx.stats, () => getCardPage(db, { paymentId: intent.paymentId, token }));
    if (!page?.confirmation) return;
    const { confirmation } = page;
    const pick = randomInt(6);
    const number = pick === 0 ? "4000000000003220" : pick === 1 ? "4000000000000002" : "4242424242424242";
    const payOrigin = new URL(proceeded.metadata.payUrl).origin;
    const confirmed = await ctx.client.call("POST", confirmation.confirmUrl, {
      body: {
        client_secret: confirmation.clientSecret,
        payment_method_data: { card: { number, cvc: "737", expMonth: 12, expYear: new Date().getUTCFullYear() + 3 } },
        setup_future_usage: false,
        return_url: `${payOrigin}/en/pay/card/${intent.paymentId}/complete?token=${token}`,
        locale: "en",
      },
      headers: { authorization: `Bearer ${confirmation.publishableKey}` },
    });
    if (!expectStatus(ctx, "card confirm", confirmed, 200, 402)) return;
    if (confirmed.body?.status === "requires_action") {
      const clientSecret = new URL(confirmed.body.next_action.redirect_to_url.url).searchParams.get("client_secret")!;
      await onPage(ctx.stats, () =>
        sandboxCardProvider.completeChallenge(db, {
          intentId: confirmation.paymentIntentId,
          clientSecret,
          outcome: randomInt(3) === 0 ? "fail" : "complete",
        }),
      ).catch((error: unknown) => note(ctx, "3ds challenge", error));
    }
    // The buyer back on the gateway, or (now and then) the merchant's page calling finalize.
    if (randomInt(4) === 0 && typeof confirmed.body?.payment_method === "string") {
      const answer = await ctx.client.call(
        "POST",
        `/api/v1/payments/intents/${intent.paymentId}/card-provider-finalize`,
        {
          body: { paymentIntentId: confirmation.paymentIntentId, externalCardId: confirmed.body.payment_method },
          headers: { "x-client-secret": intent.clientSecret, ...key() },
        },
      );
      expectStatus(ctx, "card finalize", answer, 200, 400, 409);
    } else {
      await onPage(ctx.stats, () =>
        completeCardPayment(db, { paymentId: intent.paymentId, token, paymentIntentId: confirmation.paymentIntentId }),
      ).catch((error: unknown) => note(ctx, "card page completion", error));
    }
    const code = await poll(ctx, intent.paymentId, (status) => status !== 12 && status !== 1, 5);
    if (code === 13) {
      const headers = clientHeaders(ctx.merchant, key());
      const release = randomInt(2) === 0;
      const path = `/api/v1/payments/intents/${intent.paymentId}/${release ? "release" : "capture"}`;
      expectStatus(
        ctx,
        release ? "card release" : "card capture",
        await ctx.client.call("POST", path, { body: {}, headers }),
        200,
        409,
      );
    } else if (code === 2 && randomInt(2) === 0) {
      await refundConcurrently(ctx, intent.paymentId);
    }
  },
};

/** A scenario a run adds to the mix (the redirect rails'), on a merchant of its own when given. */
export interface ExtraScenario {
  weight: number;
  merchant?: OnboardedMerchant;
  run: (ctx: Ctx) => Promise<void>;
}

const WEIGHTS: [string, number][] = [
  ["walletDirect", 4],
  ["walletWrongCodes", 1],
  ["reservation", 3],
  ["qr", 2],
  ["card", 3],
];

function pickScenario(weights: [string, number][]): string {
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = randomInt(total);
  for (const [name, weight] of weights) {
    if (roll < weight) return name;
    roll -= weight;
  }
  return weights[0]![0];
}

/** `users` virtual users, each running scenarios back to back until `until()` or `maxRequests`. */
export async function runLoad(options: {
  client: ChaosClient;
  merchants: OnboardedMerchant[];
  users: number;
  until: () => boolean;
  maxRequests: number;
  extra?: Record<string, ExtraScenario>;
}): Promise<void> {
  const { client } = options;
  const extra = options.extra ?? {};
  const weights: [string, number][] = [
    ...WEIGHTS,
    ...Object.entries(extra).map(([name, scenario]): [string, number] => [name, scenario.weight]),
  ];
  await Promise.all(
    Array.from({ length: options.users }, async (_, user) => {
      while (!options.until() && client.stats.sent < options.maxRequests) {
        const name = pickScenario(weights);
        const merchant = extra[name]?.merchant ?? options.merchants[user % options.merchants.length]!;
        try {
          await (extra[name]?.run ?? scenarios[name]!)({ client, merchant, stats: client.stats });
          bump(client.stats.scenarios, name);
        } catch (error) {
          if (!(error instanceof StepAbandoned) && client.stats.surprises.length < 50) {
            client.stats.surprises.push(`${name} threw: ${(error as Error).message}`);
          }
        }
      }
    }),
  );
}
