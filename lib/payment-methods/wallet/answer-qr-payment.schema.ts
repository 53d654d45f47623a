import { z } from "zod";
import type { ClientPrincipal } from "../../auth/principal";

/** The customer's answer in the wallet app; the sandbox test helper sends the same. */
export const qrOutcome = z.enum(["approve", "decline"], { error: "must be approve or decline" });

export const answerQrPaymentBody = z.object({ outcome: qrOutcome });

export type QrOutcome = z.output<typeof qrOutcome>;

/**
 * Who answers: the merchant's server through the sandbox test helper (its own payments only),
 * or the customer in the sandbox wallet app, holding the link the QR code encodes.
 */
export type QrAnswerAccess = { principal: ClientPrincipal } | { walletToken: string };
