import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { providerOperations } from "../../db/schema";
import { operationId } from "../../provider-operations";

/*
 * A wallet payment's charge as a recorded provider operation, apart from the code that makes
 * and settles it (wallet-charge.ts, wallet-qr-charge.ts), so the expiry can ask about it
 * without importing the wallet client.
 */

/** One charge per payment, whatever path makes it (OTP, the owner in person, a QR approval). */
export const walletChargeOperationId = (paymentId: string) => operationId(`wallet-charge:${paymentId}`);

/**
 * True while a charge of the payment is recorded and not settled: the payment is not expired
 * then (the wallet may have taken the money); reconciliation settles the charge first.
 */
export async function hasOpenWalletCharge(tx: Db, paymentId: string): Promise<boolean> {
  const [open] = await tx
    .select({ id: providerOperations.id })
    .from(providerOperations)
    .where(
      and(
        eq(providerOperations.id, walletChargeOperationId(paymentId)),
        inArray(providerOperations.status, ["pending", "unknown"]),
      ),
    );
  return open !== undefined;
}
