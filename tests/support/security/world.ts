import { randomUUID } from "node:crypto";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { clientAuth, userAuth, type ApiClient } from "../api";
import { payWithNewCard, savedCardsOf } from "../cards";
import { createCustomerToken, createMerchant } from "../factories";
import { advanceClock, createIntent, proceed, serverHeaders, type IntentOverrides } from "../payments";

export type Session = Awaited<ReturnType<typeof createCustomerToken>>;

export interface Intent {
  paymentId: string;
  clientSecret: string;
  userId: string;
}

/**
 * Two merchants and their customers, with credentials in every state a caller can hold:
 * live, revoked, rotated, expired. `owner` is the merchant whose objects every attack aims at.
 */
export interface World {
  api: ApiClient;
  owner: OnboardedMerchant;
  other: OnboardedMerchant;
  /** The owner's signed-in customer: the payments below are theirs. */
  session: Session;
  /** Another customer of the owner's service. */
  neighbour: Session;
  /** A customer of the other merchant. */
  foreign: Session;
  revokedToken: string;
  /** An access token of a pair that was refreshed: the rotated-out one. */
  rotatedToken: string;
  /** An access token past its 15 minutes (its service's sandbox clock moved on). */
  expiredToken: string;
  /** A fresh CREATED wallet intent of `merchant` (owner by default) for `session`'s customer. */
  intent(overrides?: IntentOverrides & { merchant?: OnboardedMerchant }): Promise<Intent>;
  /**
   * A wallet payment already settled by its customer (a fresh one unless given): SUCCEEDED, or PRE_AUTHORIZED
   * for RESERVATION.
   */
  settled(options?: {
    merchant?: OnboardedMerchant;
    session?: Session;
    captureMethod?: "DIRECT" | "RESERVATION";
  }): Promise<Intent>;
  /** A QR payment awaiting the wallet app, with its page token. */
  qrPayment(merchant?: OnboardedMerchant): Promise<Intent & { token: string }>;
  /** A card of `session` saved through the hosted card page; its id. */
  savedCard(session?: Session, merchant?: OnboardedMerchant): Promise<string>;
}

export async function buildWorld(api: ApiClient): Promise<World> {
  const [owner, other, clockShop] = await Promise.all([createMerchant(), createMerchant(), createMerchant()]);
  const [session, neighbour, foreign] = await Promise.all([
    createCustomerToken(owner, { name: "Signed In" }),
    createCustomerToken(owner, { name: "Neighbour" }),
    createCustomerToken(other, { name: "Foreign" }),
  ]);

  const sameCustomer = { phone: session.customer.phone };
  const [toRevoke, toRotate, toExpire] = await Promise.all([
    createCustomerToken(owner, sameCustomer),
    createCustomerToken(owner, sameCustomer),
    createCustomerToken(clockShop),
  ]);
  await expectOk(
    api.delete("/api/v1/customer-access-token/revoke", { accessToken: toRevoke.accessToken }, clientAuth(owner)),
  );
  await expectOk(
    api.post(
      "/api/v1/customer-access-token/refresh",
      { accessToken: toRotate.accessToken, refreshToken: toRotate.refreshToken },
      clientAuth(owner),
    ),
  );
  await expectOk(advanceClock(api, clockShop, 16 * 60));

  const world: World = {
    api,
    owner,
    other,
    session,
    neighbour,
    foreign,
    revokedToken: toRevoke.accessToken,
    rotatedToken: toRotate.accessToken,
    expiredToken: toExpire.accessToken,
    async intent(overrides = {}) {
      const { merchant = owner, ...rest } = overrides;
      const userId = rest.userId ?? (merchant === owner ? session.customer.phone : foreign.customer.phone);
      // Small amounts: the sandbox wallet (10,000 units) pays for every payment a suite settles.
      const created = await createIntent(api, merchant, { amount: 1, ...rest, userId });
      return { paymentId: created.paymentId, clientSecret: created.clientSecret, userId };
    },
    async settled(options = {}) {
      const merchant = options.merchant ?? owner;
      // A fresh payer by default: its own wallet and its own user_auth quota (300 a minute).
      const payer = options.session ?? (await createCustomerToken(merchant, { name: "Payer" }));
      const created = await world.intent({
        merchant,
        userId: payer.customer.phone,
        captureMethod: options.captureMethod,
      });
      const response = await proceed(
        api,
        created.paymentId,
        userAuth(merchant, payer.accessToken, { "x-platform": "API" }),
      );
      const expected = options.captureMethod === "RESERVATION" ? 13 : 2;
      if (response.status !== 200 || response.body.data.statusCode !== expected) {
        throw new Error(`could not settle a payment: ${response.status} ${JSON.stringify(response.body)}`);
      }
      return created;
    },
    async qrPayment(merchant = owner) {
      const created = await world.intent({ merchant, transactionType: "QR_CODE" });
      const response = await proceed(api, created.paymentId, serverHeaders(merchant));
      const imageUrl = response.body?.data?.metadata?.qrImageUrl as string | undefined;
      const token = imageUrl ? new URL(imageUrl).searchParams.get("token") : null;
      if (response.status !== 200 || !token)
        throw new Error(`QR proceed failed: ${response.status} ${JSON.stringify(response.body)}`);
      return { ...created, token };
    },
    async savedCard(payer = session, merchant = owner) {
      await payWithNewCard(api, merchant, { save: true, intent: { userId: payer.customer.phone } });
      const cards = await savedCardsOf(payer.customer.id);
      const card = cards.find((row) => row.deletedAt === null);
      if (!card) throw new Error("the card was not saved");
      return card.id;
    },
  };
  return world;
}

async function expectOk(pending: Promise<{ status: number; body: unknown }>) {
  const response = await pending;
  if (response.status >= 300) throw new Error(`setup call failed: ${response.status} ${JSON.stringify(response.body)}`);
}

/** An id of the right shape that names nothing. */
export const unknownId = () => randomUUID();
