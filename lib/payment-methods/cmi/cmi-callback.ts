import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { findPayment } from "../../db/payment-record";
import { redirectPayments } from "../../db/schema";
import { logger } from "../../log";
import { SYSTEM_CAUSE } from "../../payments/core/state-change-cause";
import type { RedirectProvider } from "../contract/redirect-provider";
import { settleRedirectPayment } from "../redirect/settle-redirect-payment";
import { findCmiAccount } from "./cmi-account";
import { cmiAmount, CMI_CURRENCY } from "./cmi-api-client";
import { hasValidCmiHash } from "./cmi-hash";

/** CMI reads the callback's answer as plain text. */
const answer = (body: "ACTION=POSTAUTH" | "APPROVED" | "FAILURE", status = 200) =>
  new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });

/**
 * CMI's server-to-server callback (POST to callbackUrl, form-encoded: every field the form
 * posted and CMI's answer fields, signed with the store key as HASH, ver3). As CMI's guide
 * says: verify the hash, find the order by oid, check its amount, then look at ProcReturnCode.
 * The callback only wakes the gateway up: the payment still takes its outcome from CMI's own
 * order status (settleRedirectPayment), so a callback replayed, sent twice or arriving before
 * or after the buyer's return settles the payment once. Answers: "APPROVED" (acknowledged: a
 * failure, a RESERVATION's hold kept, or a DIRECT payment the gateway captured itself with
 * PostAuth), "ACTION=POSTAUTH" (CMI captures a DIRECT payment the gateway could not capture
 * through the API just now), "FAILURE" (refused: wrong hash, unknown order or amount). Nothing
 * secret or of the card is logged: the order number and payment id only.
 */
export async function receiveCmiCallback(db: Db, request: Request, provider: RedirectProvider): Promise<Response> {
  let fields: Record<string, string>;
  try {
    fields = Object.fromEntries(new URLSearchParams(await request.text()));
  } catch {
    return answer("FAILURE", 400);
  }
  const oid = fields.oid ?? "";
  const [row] = oid
    ? await db
        .select({ paymentId: redirectPayments.paymentId })
        .from(redirectPayments)
        .where(and(eq(redirectPayments.providerOrderId, oid), eq(redirectPayments.methodCode, "CMI")))
    : [];
  const payment = row ? await findPayment(db, row.paymentId) : null;
  if (!payment) {
    logger.warn({ oid: oid.slice(0, 64) }, "CMI callback refused: no CMI order has this oid");
    return answer("FAILURE", 404);
  }
  const account = await findCmiAccount(db, payment.serviceId);
  if (!account || !hasValidCmiHash(fields, account.storeKey!)) {
    logger.warn(
      { paymentId: payment.id, oid },
      "CMI callback refused: its HASH is not the store key's hash of its fields",
    );
    return answer("FAILURE", 403);
  }
  if (
    fields.clientid !== account.clientId ||
    fields.amount !== cmiAmount(payment.amountMinor) ||
    fields.currency !== CMI_CURRENCY
  ) {
    logger.error(
      { paymentId: payment.id, oid },
      "CMI callback refused: its store, amount or currency is not the order's",
    );
    return answer("FAILURE", 409);
  }
  const settled = await settleRedirectPayment(db, { paymentId: payment.id, provider, cause: SYSTEM_CAUSE });
  logger.info(
    { paymentId: payment.id, oid, procReturnCode: fields.ProcReturnCode ?? null, settlement: settled.kind },
    "CMI callback received",
  );
  if (fields.ProcReturnCode !== "00") return answer("APPROVED");
  const stillWaiting =
    settled.kind === "unavailable" &&
    settled.payment.state === "REQUIRES_ACTION" &&
    settled.payment.expiresAt.getTime() > Date.now();
  return answer(stillWaiting && payment.captureMethod === "DIRECT" ? "ACTION=POSTAUTH" : "APPROVED");
}
