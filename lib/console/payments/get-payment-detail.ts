import { sql } from "drizzle-orm";
import type { ServiceContext } from "../../auth/principal";
import type { Db } from "../../db/client";
import {
  cardPayments,
  customers,
  paymentCaptures,
  paymentRefunds,
  paymentStateChanges,
  redirectPayments,
} from "../../db/schema";
import { sqlRows } from "../../db/sql-rows";
import type { PaymentRow } from "../../db/payment-record";
import { listEvents } from "../../events/list-events";
import { getCurrentPaymentOrThrow } from "../../payments/core/open-payment";
import { canTransition, checkStatusCode, type PaymentState } from "../../payments/core/payment-state";
import type { StateChangeCause } from "../../payments/core/state-change-cause";
import { toCheckResultView, type CheckResultView } from "../../payments/operations/payment-views";
import { pendingRefundMinor } from "../../provider-operations";
import { paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";
import { methodFunds } from "../../payment-methods/registry/method-funds";
import { clientPrincipalForConsole } from "./client-principal-for-console";
import { paymentEventEntryOf, type PaymentEventEntry } from "./payment-event-entry";
import { methodOf, type PaymentMethodView } from "./payment-list-row";
import { timelineEntryOf, type TimelineEntry } from "./payment-timeline";

/** The payment detail page of the console (contract 13), every amount in minor units. */
export interface PaymentDetail {
  payment: Pick<
    PaymentRow,
    | "id"
    | "actionId"
    | "state"
    | "status"
    | "currency"
    | "country"
    | "captureMethod"
    | "createdAt"
    | "updatedAt"
    | "expiresAt"
    | "authorizedAt"
    | "failureReason"
    | "metaData"
  >;
  statusCode: number;
  method: PaymentMethodView;
  /** What check answers for it, as the API would. */
  check: CheckResultView;
  amounts: {
    amountMinor: number;
    /** Sums of the capture and refund rows. */
    capturedMinor: number;
    refundedMinor: number;
    /** Held by refunds still with the provider. */
    pendingRefundMinor: number;
    /** What a refund may take now (0 unless the state allows one). */
    refundableMinor: number;
    /** What a capture may take now (the reservation, while PRE_AUTHORIZED). */
    capturableMinor: number;
  };
  customer: { id: string; name: string; phone: string; email: string | null; isActive: boolean };
  captures: { id: string; amountMinor: number; releasedMinor: number; createdAt: Date }[];
  refunds: { id: string; amountMinor: number; description: string; reason: string | null; createdAt: Date }[];
  timeline: TimelineEntry[];
  /** The payment's events, newest first, each with its delivery. */
  events: PaymentEventEntry[];
  /** What its state allows (the role is the page's to check). */
  allows: { capture: boolean; release: boolean; refund: boolean };
  /**
   * Its state allows a refund, but its provider's API cannot make one (Chargily): the page says to
   * refund in the provider's dashboard (contract 15).
   */
  refundsAtProvider: boolean;
  /** A redirect method's order at its provider (SATIM, CHARGILY, CLICTOPAY, CMI); null for the other methods. */
  providerOrder: ProviderOrderView | null;
}

/**
 * What the merchant quotes to its bank or provider about a redirect payment (contract 13's detail,
 * issues 43 and 44).
 */
export interface ProviderOrderView {
  /**
   * The provider's number of the order, as its back office and the receipt show it (SATIM and
   * ClicToPay: orderId, "mdOrder"; CMI: oid; Chargily: the checkout id); null until the buyer pressed Pay.
   */
  orderId: string | null;
  /** The card's authorization (approval) code, once the provider reported the payment. */
  authorizationCode: string | null;
  /** False for a provider that reports none (Chargily): the page says so. */
  givesAuthorizationCode: boolean;
}

/** How many of a payment's events the page lists (a payment makes a handful). */
const EVENTS_SHOWN = 100;

/**
 * Everything the detail page shows, for one payment of `service`: another merchant's payment,
 * or no payment, is ApiError not_found (the page answers 404). Read as check reads it (an intent
 * past its grace is failed on the spot), then its rows in parallel.
 */
export async function getPaymentDetail(
  db: Db,
  options: { service: ServiceContext; paymentId: string },
): Promise<PaymentDetail> {
  const payment = await getCurrentPaymentOrThrow(db, {
    principal: clientPrincipalForConsole(options.service),
    paymentId: options.paymentId,
    methods: methodFunds,
  });
  const redirect = paymentMethodOf(payment.paymentMethodCode)?.redirect ?? null;
  const refundsAtProvider = canTransition(payment.state, "refund_partial") && Boolean(redirect?.refundElsewhere);
  const allows = {
    capture: canTransition(payment.state, "capture"),
    release: canTransition(payment.state, "release"),
    refund: canTransition(payment.state, "refund_partial") && !refundsAtProvider,
  };
  // Three at a time at most, so a page does not hold half the pool: its rows in one statement,
  // the refunds still with the provider (only where a refund is possible), its events.
  const [rows, pending, events] = await Promise.all([
    paymentRowsOf(db, payment),
    allows.refund ? pendingRefundMinor(db, payment.id) : Promise.resolve(0),
    listEvents(db, { serviceId: options.service.id, paymentId: payment.id, limit: EVENTS_SHOWN }),
  ]);
  const capturedMinor = rows.captures.reduce((sum, row) => sum + row.amountMinor, 0);
  const refundedMinor = rows.refunds.reduce((sum, row) => sum + row.amountMinor, 0);
  return {
    payment: {
      id: payment.id,
      actionId: payment.actionId,
      state: payment.state,
      status: payment.status,
      currency: payment.currency,
      country: payment.country,
      captureMethod: payment.captureMethod,
      createdAt: payment.createdAt,
      updatedAt: payment.updatedAt,
      expiresAt: payment.expiresAt,
      authorizedAt: payment.authorizedAt,
      failureReason: payment.failureReason,
      metaData: payment.metaData,
    },
    statusCode: checkStatusCode(payment.state),
    method: methodOf({ ...payment, cardBrand: rows.card?.brand ?? null, cardLast4: rows.card?.last4 ?? null }),
    check: toCheckResultView(payment),
    amounts: {
      amountMinor: payment.amountMinor,
      capturedMinor,
      refundedMinor,
      pendingRefundMinor: pending,
      refundableMinor: allows.refund ? Math.max(0, capturedMinor - refundedMinor - pending) : 0,
      capturableMinor: allows.capture ? payment.amountMinor : 0,
    },
    customer: rows.customer,
    captures: rows.captures,
    refunds: rows.refunds,
    timeline: rows.timeline,
    events: events.events.map(paymentEventEntryOf),
    allows,
    refundsAtProvider,
    providerOrder: redirect
      ? {
          orderId: rows.redirect?.providerOrderId ?? payment.providerOrderId,
          authorizationCode: payment.approvalCode,
          givesAuthorizationCode: redirect.givesAuthorizationCode,
        }
      : null,
  };
}

const dated = <T extends { createdAt: string }>(row: T) => ({ ...row, createdAt: new Date(row.createdAt) });

/** The payment's customer, card, redirect order, captures, refunds and timeline, in one round trip. */
async function paymentRowsOf(db: Db, payment: PaymentRow) {
  const [row] = sqlRows<{
    customer: PaymentDetail["customer"];
    card: { brand: string | null; last4: string | null } | null;
    redirect: { providerOrderId: string | null } | null;
    captures: { id: string; amountMinor: number; releasedMinor: number; createdAt: string }[];
    refunds: { id: string; amountMinor: number; description: string; reason: string | null; createdAt: string }[];
    timeline: {
      at: string;
      fromState: PaymentState | null;
      toState: PaymentState;
      cause: StateChangeCause["kind"];
      consoleUserEmail: string | null;
    }[];
  }>(
    await db.execute(sql`
      select
        (select json_build_object(
             'id', c.id, 'name', c.name, 'phone', c.phone, 'email', c.email, 'isActive', c.is_active)
           from ${customers} c where c.id = ${payment.customerId}) as customer,
        (select json_build_object('brand', k.card_brand, 'last4', k.card_last4)
           from ${cardPayments} k where k.payment_id = ${payment.id}) as card,
        (select json_build_object('providerOrderId', o.provider_order_id)
           from ${redirectPayments} o where o.payment_id = ${payment.id}) as redirect,
        coalesce((select json_agg(json_build_object(
             'id', x.id, 'amountMinor', x.amount_minor, 'releasedMinor', x.released_minor, 'createdAt', x.created_at
           ) order by x.created_at, x.id)
           from ${paymentCaptures} x where x.payment_id = ${payment.id}), '[]') as captures,
        coalesce((select json_agg(json_build_object(
             'id', r.id, 'amountMinor', r.amount_minor, 'description', r.description, 'reason', r.reason,
             'createdAt', r.created_at
           ) order by r.created_at, r.id)
           from ${paymentRefunds} r where r.payment_id = ${payment.id}), '[]') as refunds,
        coalesce((select json_agg(json_build_object(
             'at', t.at, 'fromState', t.from_state, 'toState', t.to_state, 'cause', t.cause,
             'consoleUserEmail', t.console_user_email
           ) order by t.at, t.id)
           from ${paymentStateChanges} t where t.payment_id = ${payment.id}), '[]') as timeline`),
  );
  return {
    customer: row!.customer,
    card: row!.card,
    redirect: row!.redirect,
    captures: row!.captures.map(dated),
    refunds: row!.refunds.map(dated),
    timeline: row!.timeline.map((entry) => timelineEntryOf({ ...entry, at: new Date(entry.at) })),
  };
}
