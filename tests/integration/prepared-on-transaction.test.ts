import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { lockPayment } from "@/lib/db/payment-record";
import { createMerchant } from "../support/factories";
import { createIntent } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

// preparedOn (lib/db/prepared.ts) rebinds a statement built once to the caller's connection,
// through drizzle internals: if that ever broke, a lock would silently run outside its
// transaction and be released at once. Another connection must find the row locked.
const { api } = useTestGateway();

it("runs a statement built on the pool inside the caller's transaction (the payment lock holds)", async () => {
  const merchant = await createMerchant();
  const intent = await createIntent(api, merchant);
  const db = await getDb();
  await lockPayment(db, intent.paymentId);
  let code: string | undefined;
  await db.transaction(async (tx) => {
    expect((await lockPayment(tx, intent.paymentId))?.id).toBe(intent.paymentId);
    try {
      await db.execute(sql`select id from payments where id = ${intent.paymentId} for update nowait`);
      code = "not locked";
    } catch (error) {
      const { code: own, cause } = error as { code?: string; cause?: { code?: string } };
      code = own ?? cause?.code;
    }
  });
  expect(code).toBe("55P03"); // lock_not_available
});
