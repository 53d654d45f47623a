import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { isPaymentId, type PaymentRow } from "../../db/payment-record";
import { preparedOn } from "../../db/prepared";
import { payments } from "../../db/schema";
import { methodEnabledGiven, methodInCatalogSql } from "../../payment-methods/method-enabled";
import { scopedPaymentOrThrow } from "../core/get-payment-or-throw";
import type { ProceedPrincipal } from "../../payment-methods/contract/proceed-contract";

const paymentForProceedQuery = (db: Db) =>
  preparedOn(db, "payment_for_proceed", (db) =>
    db
      .select({
        payment: payments,
        methodInCatalog: methodInCatalogSql({
          serviceId: sql.placeholder("serviceId"),
          country: sql`${payments}.${sql.identifier(payments.country.name)}`,
          code: sql.placeholder("code"),
        }),
      })
      .from(payments)
      .where(eq(payments.id, sql.placeholder("id")))
      .prepare("payment_for_proceed"),
  );

/**
 * What a proceed reads before its transaction, in one statement: the payment as the caller may
 * see it (getPaymentOrThrow's scoping) and whether the method is offered in its country. The
 * transaction locks and reads the payment again; the method's answer stands for it, because a
 * read inside would be no fresher (the catalog row is not locked either way) and a payment's
 * country never changes.
 */
export async function readProceedPayment(
  db: Db,
  options: { principal: ProceedPrincipal; paymentId: string; code: string },
): Promise<{ payment: PaymentRow; methodEnabled: boolean }> {
  const { principal } = options;
  const [row] = isPaymentId(options.paymentId)
    ? await paymentForProceedQuery(db).execute({
        id: options.paymentId,
        serviceId: principal.service.id,
        code: options.code,
      })
    : [];
  const payment = scopedPaymentOrThrow(principal, row?.payment ?? null);
  return {
    payment,
    methodEnabled: methodEnabledGiven({
      service: principal.service,
      country: payment.country,
      inCatalog: row?.methodInCatalog === true,
    }),
  };
}
