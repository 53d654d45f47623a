// Timings the hosted pages share between their server markup (meta refresh without script)
// and their client islands. Here, not in a "use client" module: a server component that
// imports a value from one gets a client reference, not the number.

/** Contract 8 asks for "within 3 seconds"; 2 leaves time to read the outcome and margin for a slow load. */
export const REDIRECT_DELAY_MS = 2000;

/** The QR page polls its status after 1 s, then 1.5 times longer each time, never more than 5 s apart. */
export const POLL_FIRST_DELAY_MS = 1_000;
export const POLL_MAX_DELAY_MS = 5_000;

/**
 * The QR page, once the payment has ended: long enough for a screen reader to announce the outcome
 * before it moves on.
 */
export const QR_MOVE_DELAY_MS = 1_500;
