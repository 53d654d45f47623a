/**
 * Where a keyset page ends: the row's creation time in microseconds (PostgreSQL's precision: a
 * JavaScript Date would round ties apart) and its id, which breaks ties on the time. Opaque in
 * the URL.
 */
export interface PaymentCursor {
  createdAtMicros: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodePaymentCursor(cursor: PaymentCursor): string {
  return Buffer.from(`${cursor.createdAtMicros}.${cursor.id}`).toString("base64url");
}

// At most 16 digits: up to the year 2286. More would overflow the bigint or the timestamp the
// keyset compares with, a database error (500) for a URL someone edited instead of the field's problem.
const MICROS = /^\d{1,16}$/;

/** Null for anything this list did not hand out. */
export function decodePaymentCursor(text: string): PaymentCursor | null {
  const [micros, id, extra] = Buffer.from(text, "base64url").toString().split(".");
  if (extra !== undefined || !micros || !MICROS.test(micros) || !id || !UUID.test(id)) return null;
  return { createdAtMicros: micros, id: id.toLowerCase() };
}
