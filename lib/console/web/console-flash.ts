import { eq, sql } from "drizzle-orm";
import { decryptWithKey, encryptWithKey, getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { consoleSessions } from "../../db/schema";
import { sqlRows } from "../../db/sql-rows";

/**
 * What one page shows once after a form's redirect (post, redirect, get): a secret or recovery
 * codes shown this once, an invitation or password reset link, or a form's error and the values typed. Kept on the
 * session row, sealed under the gateway key, and taken (cleared) by the page that shows it.
 */
export type ConsoleFlash =
  | { kind: "error"; form: string; key: string; field?: string; detail?: string; values?: Record<string, string> }
  | { kind: "notice"; key: string }
  | { kind: "new_secret"; secret: "client_secret" | "webhook_secret"; value: string }
  | { kind: "recovery_codes"; codes: string[] }
  | { kind: "invitation_link"; url: string; email: string; emailed: boolean }
  | { kind: "reset_link"; url: string; email: string }
  /** A payment method's credentials saved (`saved`) or only tested: what its provider answered ("Test connection"). */
  | {
      kind: "connection_test";
      method: string;
      saved: boolean;
      result: "ok" | "wrong_credentials" | "unavailable" | "not_configured";
    };

export async function setFlash(db: Db, sessionId: string, flash: ConsoleFlash): Promise<void> {
  const sealed = encryptWithKey(await getGatewayKey(db), JSON.stringify(flash));
  await db.update(consoleSessions).set({ flashSealed: sealed }).where(eq(consoleSessions.id, sessionId));
}

/** The flash, cleared in the same statement: a reload shows it no more. */
export async function takeFlash(db: Db, sessionId: string): Promise<ConsoleFlash | null> {
  const rows = await db.execute(
    sql`update console_sessions new set flash_sealed = null from console_sessions old
        where new.id = ${sessionId} and old.id = new.id and old.flash_sealed is not null returning old.flash_sealed`,
  );
  const sealed = sqlRows<{ flash_sealed: string | null }>(rows)[0]?.flash_sealed;
  if (!sealed) return null;
  return JSON.parse(decryptWithKey(await getGatewayKey(db), sealed)) as ConsoleFlash;
}
