import { asc, eq, sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db/client";
import Stripe from "stripe";
import { cardPayments, notifications, payments, savedCards, services } from "@/lib/db/schema";
import { cardProviderEvents, cardProviderPaymentIntents } from "@/simulators/card/card-tables";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { getCardPage } from "@/lib/hosted/views/card-page-view";
import { completeCardPayment } from "@/lib/payment-methods/card/hosted/complete-card-payment";
import { sandboxAccountOf } from "@/lib/providers/card/card-provider-accounts";
import { sandboxCardProvider } from "@/simulators/card/sandbox-card-provider";
import { SIGNATURE_HEADER, intentClientSecret, signEvent } from "@/simulators/card/sandbox-secrets";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import type { ApiClient } from "./api";
import { advanceClock, createIntent, proceed, serverHeaders, tokenOf, type IntentOverrides } from "./payments";

/** Contract section 9's test cards. */
export const TEST_CARDS = {
  visa: "4242 4242 4242 4242",
  mastercard: "5555 5555 5555 4444",
  declined: "4000 0000 0000 0002",
  insufficientFunds: "4000 0000 0000 9995",
  threeDSecure: "4000 0000 0000 3220",
} as const;

export const TEST_CVC = "737";
/** Digit strings that must never be found stored or logged: every test card number in full, and the CVC. */
export const FORBIDDEN_CARD_DATA = [...Object.values(TEST_CARDS).map((number) => number.replace(/ /g, "")), TEST_CVC];

export function futureExpiry() {
  return { expMonth: 12, expYear: new Date().getUTCFullYear() + 3 };
}

export interface CardProceed {
  paymentId: string;
  clientSecret: string;
  payUrl: string;
  token: string;
  userId: string;
}

/** A created intent proceeded with CARD_PROVIDER by the merchant's server (asserts 200 and 12). */
export async function proceedWithCard(
  api: ApiClient,
  merchant: OnboardedMerchant,
  options: { intent?: IntentOverrides; body?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<CardProceed> {
  const intent = await createIntent(api, merchant, options.intent);
  const response = await proceed(api, intent.paymentId, serverHeaders(merchant, options.headers), {
    paymentMethodCode: "CARD_PROVIDER",
    ...options.body,
  });
  if (response.status !== 200 || response.body.data.statusCode !== 12) {
    throw new Error(`card proceed failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  const payUrl = response.body.data.metadata.payUrl as string;
  return {
    paymentId: intent.paymentId,
    clientSecret: intent.clientSecret,
    payUrl,
    token: tokenOf(payUrl),
    userId: intent.body.userId,
  };
}

/**
 * What the hosted card page's script does: confirm the provider intent from the "browser"
 * with the service's publishable key, with a new card or a saved one. Answers the provider's
 * JSON as is.
 */
export async function confirmAtProvider(
  api: ApiClient,
  proceeded: Pick<CardProceed, "paymentId" | "token">,
  method:
    | { card: string; save?: boolean; cvc?: string; expMonth?: number; expYear?: number }
    | { savedPaymentMethodId: string },
  /** The page as the buyer loaded it earlier (loadCardPage): a page left open while the payment changed. */
  loaded?: CardConfirmation,
) {
  const confirmation = loaded ?? (await loadCardPage(proceeded));
  const cardPageUrl = `${process.env.PUBLIC_BASE_URL}/en/pay/card/${proceeded.paymentId}`;
  const returnUrl = `${cardPageUrl}/complete?token=${proceeded.token}`;
  const body =
    "card" in method
      ? {
          client_secret: confirmation.clientSecret,
          payment_method_data: {
            card: {
              number: method.card,
              cvc: method.cvc ?? TEST_CVC,
              ...futureExpiry(),
              ...pick(method, ["expMonth", "expYear"]),
            },
          },
          setup_future_usage: method.save ?? false,
          return_url: returnUrl,
          locale: "en",
        }
      : {
          client_secret: confirmation.clientSecret,
          payment_method: method.savedPaymentMethodId,
          return_url: returnUrl,
          locale: "en",
        };
  const response = await api.post(confirmation.confirmUrl, body, {
    authorization: `Bearer ${confirmation.publishableKey}`,
  });
  return { ...response, paymentIntentId: confirmation.paymentIntentId };
}

type CardConfirmation = NonNullable<NonNullable<Awaited<ReturnType<typeof getCardPage>>>["confirmation"]>;

/** What the hosted card page hands Stripe.js when the buyer opens it. */
export async function loadCardPage(proceeded: Pick<CardProceed, "paymentId" | "token">): Promise<CardConfirmation> {
  const page = await getCardPage(await getDb(), { paymentId: proceeded.paymentId, token: proceeded.token });
  if (!page?.confirmation) throw new Error("the card page has nothing to confirm");
  return page.confirmation;
}

function pick<T extends object>(value: T, keys: string[]) {
  return Object.fromEntries(Object.entries(value).filter(([key, item]) => keys.includes(key) && item !== undefined));
}

/** The buyer back on the gateway after the provider: what the page's complete step does. */
export async function completeOnPage(proceeded: Pick<CardProceed, "paymentId" | "token">, paymentIntentId: string) {
  const completion = await completeCardPayment(await getDb(), {
    paymentId: proceeded.paymentId,
    token: proceeded.token,
    paymentIntentId,
  });
  if (completion.kind !== "finished") throw new Error(`the card page completion did not finish: ${completion.kind}`);
  return { state: completion.state, statusCode: completion.statusCode };
}

/** Proceed, confirm a new card and come back: the whole buyer journey without a browser. */
export async function payWithNewCard(
  api: ApiClient,
  merchant: OnboardedMerchant,
  options: { card?: string; save?: boolean; intent?: IntentOverrides; body?: Record<string, unknown> } = {},
) {
  const proceeded = await proceedWithCard(api, merchant, { intent: options.intent, body: options.body });
  const confirmed = await confirmAtProvider(api, proceeded, {
    card: options.card ?? TEST_CARDS.visa,
    save: options.save,
  });
  if (confirmed.status !== 200)
    throw new Error(`confirm failed: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  const completed = await completeOnPage(proceeded, confirmed.paymentIntentId);
  return { ...proceeded, confirmed, completed, paymentIntentId: confirmed.paymentIntentId };
}

/**
 * A card intent the gateway lets expire (its clock moved past the grace) before the buyer
 * confirms; the provider, which knows nothing of the gateway's clock, then takes the money.
 * Answers the provider's confirmation; the buyer has not come back to the gateway yet.
 */
export async function confirmAfterExpiry(
  api: ApiClient,
  merchant: OnboardedMerchant,
  options: { save?: boolean } = {},
) {
  const proceeded = await proceedWithCard(api, merchant);
  await advanceClock(api, merchant, 31 * 60 + 1);
  const db = await getDb();
  const intentId = (await cardPaymentOf(proceeded.paymentId))!.providerIntentId;
  const confirmed = await sandboxCardProvider.confirmPaymentIntent(db, {
    intentId,
    publishableKey: merchant.cardProviderPublishableKey,
    clientSecret: intentClientSecret(await getGatewayKey(db), intentId),
    paymentMethod: { card: { number: TEST_CARDS.visa, cvc: TEST_CVC, ...futureExpiry() } },
    setupFutureUsage: options.save ?? false,
    returnUrl: `${process.env.PUBLIC_BASE_URL}/en/pay/card/${proceeded.paymentId}/complete`,
    locale: "en",
  });
  return { proceeded, intentId, confirmed };
}

export function finalizeHeaders(clientSecret: string, extra: Record<string, string> = {}) {
  return { "x-client-secret": clientSecret, ...extra };
}

export function finalize(
  api: ApiClient,
  paymentId: string,
  clientSecret: string,
  body: object,
  extra: Record<string, string> = {},
) {
  return api.post(
    `/api/v1/payments/intents/${paymentId}/card-provider-finalize`,
    body,
    finalizeHeaders(clientSecret, extra),
  );
}

/** The provider's stored events of one intent, and how to send one again, signed, to the inbound endpoint. */
export async function providerEvents(paymentIntentId: string) {
  const db = await getDb();
  return db.select().from(cardProviderEvents).where(eq(cardProviderEvents.paymentIntentId, paymentIntentId));
}

export async function postSignedEvent(
  api: ApiClient,
  payload: unknown,
  options: { signature?: string; now?: Date } = {},
) {
  const rawBody = JSON.stringify(payload);
  return api.call("POST", "/api/v1/webhooks/card-provider", {
    rawBody,
    headers: { "content-type": "application/json", ...(await cardEventSignatures(rawBody, options)) },
  });
}

/**
 * The card-provider webhook's signature headers for a raw event body: the gateway's own and the
 * one Stripe sends (the Stripe adapter checks that one), for the intent's sandbox account, or
 * any service's for an intent the provider does not know. `signature` replaces both (a forgery).
 */
export async function cardEventSignatures(
  rawBody: string,
  options: { signature?: string; now?: Date } = {},
): Promise<Record<string, string>> {
  const db = await getDb();
  const gatewayKey = await getGatewayKey(db);
  const now = options.now ?? new Date();
  const signature = options.signature ?? signEvent(gatewayKey, rawBody, now);
  const object = (JSON.parse(rawBody) as { data?: { object?: { id?: string; metadata?: { paymentId?: string } } } })
    .data?.object;
  const [intent] = await db
    .select({ accountKey: cardProviderPaymentIntents.accountKey })
    .from(cardProviderPaymentIntents)
    .where(eq(cardProviderPaymentIntents.id, object?.id ?? ""));
  // An event naming one of our payments is checked against that payment's service's account.
  const paymentId = /^[0-9a-f-]{36}$/i.test(object?.metadata?.paymentId ?? "") ? object!.metadata!.paymentId! : null;
  const [named] = paymentId
    ? await db
        .select({ key: services.cardProviderPublishableKey })
        .from(payments)
        .innerJoin(services, eq(services.id, payments.serviceId))
        .where(eq(payments.id, paymentId))
    : [];
  const [anyService] = await db.select({ key: services.cardProviderPublishableKey }).from(services).limit(1);
  const stripeSignature =
    options.signature ??
    new Stripe("sk_test_signing_only").webhooks.generateTestHeaderString({
      payload: rawBody,
      secret: sandboxAccountOf(gatewayKey, intent?.accountKey ?? named?.key ?? anyService?.key ?? "").webhookSecret,
      timestamp: Math.floor(now.getTime() / 1000),
    });
  return { [SIGNATURE_HEADER]: signature, "stripe-signature": stripeSignature };
}

export async function savedCardsOf(customerId: string) {
  return (await getDb()).select().from(savedCards).where(eq(savedCards.customerId, customerId));
}

export async function cardPaymentOf(paymentId: string) {
  const [row] = await (await getDb()).select().from(cardPayments).where(eq(cardPayments.paymentId, paymentId));
  return row;
}

export async function notificationsOf(paymentId: string) {
  // In the order they were written: a row's place in the table moves when its delivery is recorded.
  return (await getDb())
    .select()
    .from(notifications)
    .where(eq(notifications.paymentId, paymentId))
    .orderBy(asc(notifications.createdAt), asc(notifications.id));
}

type Rows = Record<string, unknown>[];
const rowsOf = (result: unknown): Rows => (Array.isArray(result) ? result : (result as { rows: Rows }).rows);

// A gateway table by its bare name, a simulator's as simulators.<name>.
const tableNamed = (name: string) =>
  sql.join(
    name.split(".").map((part) => sql.identifier(part)),
    sql.raw("."),
  );

/**
 * Where `text` shows a full test card number (with or without spaces), a column or JSON
 * field whose whole value is the CVC, or a field named like card data. A 3-digit CVC occurs
 * by chance inside ids and timestamps, so it is looked for as a whole value only.
 */
export function cardDataIn(text: string): string[] {
  const found: string[] = [];
  for (const number of Object.values(TEST_CARDS)) {
    for (const form of [number, number.replace(/ /g, "")])
      if (text.includes(form)) found.push(`card number ending ${number.slice(-4)}`);
  }
  // A row's own serial id reaches the CVC's digits in a long run ("id":737); that is no card data.
  for (const match of text.matchAll(new RegExp(`"(\\w*)"\\s*:\\s*"?${TEST_CVC}"?\\s*[,}\\]]`, "g"))) {
    if (match[1] !== "id") found.push("a value equal to the CVC");
  }
  if (/"(cvc|cvv|cvc2|card_?number|pan)"\s*:/i.test(text)) found.push("a field named like card data");
  return found;
}

/** The last word of every card suite: every row of every table, as JSON text, through cardDataIn. */
export async function storedCardData(db?: Db): Promise<{ table: string; finding: string }[]> {
  const source = db ?? (await getDb());
  const tables = rowsOf(
    await source.execute(
      sql`select table_schema, table_name from information_schema.tables
          where table_schema in ('public', 'simulators') and table_type = 'BASE TABLE'
            and table_name <> '__drizzle_migrations'`,
    ),
  ).map((row) =>
    row.table_schema === "public" ? String(row.table_name) : `${String(row.table_schema)}.${String(row.table_name)}`,
  );
  const found: { table: string; finding: string }[] = [];
  for (const table of tables) {
    const rows = rowsOf(await source.execute(sql`select row_to_json(t)::text as row from ${tableNamed(table)} t`));
    for (const { row } of rows) for (const finding of cardDataIn(String(row))) found.push({ table, finding });
  }
  return found;
}

/** Polls until `read` satisfies `done` (provider events arrive asynchronously), or fails after `timeoutMs`. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
