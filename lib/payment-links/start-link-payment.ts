import { and, eq } from "drizzle-orm";
import { BUYER_CAUSE } from "../payments/core/state-change-cause";
import { ulid } from "ulid";
import { serviceColumns } from "../auth/service-columns";
import { serviceClock, systemClock, type Clock } from "../clock";
import { getGatewayKey } from "../crypto/gateway-key";
import type { Db } from "../db/client";
import { paymentLinks, payments, services } from "../db/schema";
import { AmountError, fromMinorUnits, toMinorUnits } from "../money/amount";
import { currencyExponent, type CurrencyCode } from "../money/currencies";
import { readTypedAmount } from "../money/typed-amount";
import { phoneSchema } from "../customers/customer.schema";
import { withoutTrunkZero } from "../geo/calling-codes";
import { toAsciiDigits } from "../validation/native-digits";
import { hostedPageToken } from "../payments/core/hosted-page-token";
import { isExpiredIntent } from "../payments/core/payment-expiry";
import { createPaymentIntent } from "../payments/operations/create-payment-intent";
import { serviceCreator } from "../payments/operations/intent-creator";
import { enabledMethodCodes } from "../payment-methods/enabled-method-codes";
import {
  linkClosure,
  livePayment,
  linkPaymentTotals,
  type LinkClosure,
  type PaymentLinkRow,
} from "./payment-link-record";
import { isPaymentLinkId } from "./payment-link.schema";

/** A field of the link page the buyer must fix, and why (the page words it beside the field). */
export type LinkFormProblem =
  | { field: "amount"; problem: "required" | "format" | "below_min" | "above_max" }
  | { field: "phone"; problem: "required" | "format" };

export type LinkPaymentStart =
  | { outcome: "not_found" }
  | { outcome: "closed"; closure: LinkClosure }
  /** No payment method is enabled for the link's country now: an intent could not be paid. */
  | { outcome: "no_methods" }
  /** A single-use link another buyer is paying right now. */
  | { outcome: "busy" }
  /** A single-use link this buyer (the same phone) is already paying: that intent, taken up again. */
  | { outcome: "resumed"; paymentId: string; token: string }
  | { outcome: "invalid"; problems: LinkFormProblem[] }
  /** A valid start `admit` refused (the link page's limits): nothing was created. */
  | { outcome: "limited" }
  | { outcome: "created"; paymentId: string; token: string };

/**
 * The link page's "Continue" (contract 14): an ordinary intent for the buyer (userId the phone,
 * metaData the link's plus paymentLinkId), created through create intent's own operation. A
 * single-use link is locked while it is checked and its intent inserted, so of two buyers
 * pressing Continue at once the second sees the first's intent: it waits (busy) while that one
 * is open (unless it is the same buyer back: their own intent again), and finds the link closed
 * once it succeeded. A reusable link takes no lock.
 */
export async function startLinkPayment(
  db: Db,
  options: {
    linkId: string;
    phone: string | undefined;
    amount: string | undefined;
    attempt?: string | undefined;
    clock?: Clock;
    /** Asked only for entries that are valid, before the intent is made: false refuses the start ("limited"). */
    admit?: (phone: string) => Promise<boolean>;
  },
): Promise<LinkPaymentStart> {
  if (!isPaymentLinkId(options.linkId)) return { outcome: "not_found" };
  // Entries that cannot start a payment (an invalid phone) are answered below and cost nothing:
  // so junk posts never use up what real buyers need.
  if (options.admit) {
    const found = await readLink(db, options.linkId, false);
    const entered = found && buyerEntries(found.link, options);
    if (entered && !("problems" in entered) && !(await options.admit(entered.phone))) return { outcome: "limited" };
  }
  const started = await db.transaction(
    async (
      tx,
    ): Promise<
      LinkPaymentStart | { outcome: "insert"; paymentId: string } | { outcome: "resume"; paymentId: string }
    > => {
      const found = await readLink(tx, options.linkId, false);
      if (!found) return { outcome: "not_found" };
      const { link, service } = found.link.reusable ? found : (await readLink(tx, options.linkId, true))!;
      const clock = serviceClock(service, options.clock ?? systemClock);
      const now = clock.now();
      const totals = (await linkPaymentTotals(tx, { serviceId: service.id, linkIds: [link.id] })).get(link.id)!;
      const closure = linkClosure(link, totals, now);
      if (closure) return { outcome: "closed", closure };
      // A page opened before the merchant's methods were turned off: no intent that nobody can pay
      // (a single-use link's would even hold the link for its lifetime).
      if ((await enabledMethodCodes(tx, { service, country: link.country })).length === 0)
        return { outcome: "no_methods" };
      const entered = buyerEntries(link, options);
      if ("problems" in entered) return { outcome: "invalid", problems: entered.problems };
      const live = link.reusable ? null : await livePayment(tx, { serviceId: service.id, linkId: link.id, now });
      // The same buyer back (another tab, the back button): their own intent, not a second one.
      if (live) return live.phone === entered.phone ? { outcome: "resume", paymentId: live.id } : { outcome: "busy" };

      const { payment } = await createPaymentIntent(tx, {
        creator: serviceCreator(service, clock),
        // The buyer creates it on the link's page.
        cause: BUYER_CAUSE,
        query: { countryCode: link.country },
        input: {
          actionId: await linkActionId(tx, {
            serviceId: service.id,
            linkId: link.id,
            attempt: options.attempt,
            entered,
            now,
          }),
          amount: fromMinorUnits(entered.amountMinor, link.currency),
          // Checked by the link's create (payment-link.schema.ts).
          actionCurrencyCode: link.currency as CurrencyCode,
          actionCountryCode: link.country,
          userId: entered.phone,
          captureMethod: link.captureMethod,
          metaData: { ...((link.metaData as Record<string, unknown> | null) ?? {}), paymentLinkId: link.id },
        },
      });
      return { outcome: "insert", paymentId: payment.id };
    },
  );
  if (started.outcome !== "insert" && started.outcome !== "resume") return started;
  const token = hostedPageToken(await getGatewayKey(db), started.paymentId);
  return { outcome: started.outcome === "insert" ? "created" : "resumed", paymentId: started.paymentId, token };
}

// The link page renders a fresh ULID (`attempt`) into each view of its form.
const ATTEMPT = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * The actionId of the intent a press of Continue creates. A double submit of the same page
 * view (same attempt, same entries) is create's own idempotent replay: the same intent, not a
 * second one with a second OTP. Once that intent failed, was canceled or expired, the same
 * view (the back button) starts a new one.
 */
async function linkActionId(
  tx: Db,
  options: {
    serviceId: string;
    linkId: string;
    attempt: string | undefined;
    entered: { phone: string; amountMinor: number };
    now: Date;
  },
): Promise<string> {
  const { linkId, attempt, entered, now } = options;
  const fresh = `${linkId}:${ulid(now.getTime())}`;
  if (!attempt || !ATTEMPT.test(attempt)) return fresh;
  const actionId = `${linkId}:${attempt}:${entered.amountMinor}:${entered.phone}`;
  const [used] = await tx
    .select({ state: payments.state, expiresAt: payments.expiresAt })
    .from(payments)
    .where(and(eq(payments.serviceId, options.serviceId), eq(payments.actionId, actionId)));
  if (!used) return actionId;
  return used.state === "FAILED" || used.state === "CANCELED" || isExpiredIntent(used, now) ? fresh : actionId;
}

async function readLink(tx: Db, linkId: string, lock: boolean) {
  const query = tx
    .select({ link: paymentLinks, service: serviceColumns })
    .from(paymentLinks)
    .innerJoin(services, eq(services.id, paymentLinks.serviceId))
    .where(eq(paymentLinks.id, linkId));
  const [row] = lock ? await query.for("update", { of: paymentLinks }) : await query;
  return row ?? null;
}

/** The buyer's phone and amount (the link's own when fixed), or what to fix. */
function buyerEntries(
  link: PaymentLinkRow,
  entries: { phone: string | undefined; amount: string | undefined },
): { phone: string; amountMinor: number } | { problems: LinkFormProblem[] } {
  const problems: LinkFormProblem[] = [];
  const phoneText = withoutTrunkZero(toAsciiDigits(entries.phone ?? "").replace(/[\s.()-]/g, ""));
  const phone = phoneSchema.safeParse(phoneText);
  if (!phoneText) problems.push({ field: "phone", problem: "required" });
  else if (!phone.success) problems.push({ field: "phone", problem: "format" });

  let amountMinor = link.amountMinor;
  if (amountMinor === null) {
    const amount = enteredAmountMinor(entries.amount, link.currency);
    if (typeof amount === "string") problems.push({ field: "amount", problem: amount });
    else if (link.minAmountMinor !== null && amount < link.minAmountMinor)
      problems.push({ field: "amount", problem: "below_min" });
    else if (link.maxAmountMinor !== null && amount > link.maxAmountMinor)
      problems.push({ field: "amount", problem: "above_max" });
    else amountMinor = amount;
  }
  if (problems.length > 0 || amountMinor === null || !phone.success) return { problems };
  return { phone: phone.data, amountMinor };
}

/**
 * An amount as a buyer types it ("150", "150.5", "150,50": lib/money/typed-amount.ts), in minor units, or
 * what is wrong with it.
 */
function enteredAmountMinor(text: string | undefined, currency: string): number | "required" | "format" {
  const typed = readTypedAmount(text);
  if (typed.kind === "empty") return "required";
  if (typed.kind !== "amount") return "format";
  // More decimals than the currency has is refused, not rounded through Number: "1,500" DZD
  // (one thousand five hundred, to an English reader) must never become 1.50 DZD.
  if (typed.fractionDigits > currencyExponent(currency)) return "format";
  try {
    return toMinorUnits(typed.value, currency);
  } catch (error) {
    if (error instanceof AmountError) return "format";
    throw error;
  }
}
