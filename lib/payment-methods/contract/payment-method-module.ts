import type { Db } from "../../db/client";
import type { PaymentRow } from "../../db/payment-record";
import type { ProviderOperationHandler, ProviderOperationRow } from "../../provider-operations";
import type { PaymentMethodCode } from "../codes/payment-method-codes";
import type { ProceedHandler, ProceedPrincipal } from "./proceed-contract";
import type { RedirectProvider } from "./redirect-provider";
import type { MethodEndUserMessages } from "../../payments/core/payment-messages";
import type { MethodFunds } from "../../payments/core/method-funds";

/** The hosted page on which the buyer acts while a payment of the method awaits them (REQUIRES_ACTION). */
export type HostedStepPage = "otp" | "card" | "redirect";

/**
 * What the buyer's list of methods (GET payment methods) adds to the method's item: the wallet's balance, the
 * saved cards, or nothing ("none").
 */
export type UserListing = "walletBalance" | "savedCards" | "none";

/**
 * What every payment method provides (lib/payment-methods/<method>/, listed once in
 * lib/payment-methods/registry). The proceed, the hosted step and the after-commit work reach a
 * method only through this. What lib/payments/core needs of a method (how its funds move) the
 * core declares as a port (MethodFunds) and the module provides; the registry hands it to the
 * core's callers. `Prepared` is what the method asked of its provider before the proceed's
 * transaction (never inside it).
 */
export interface PaymentMethodModule<Prepared = unknown> {
  code: PaymentMethodCode;
  hostedStep: HostedStepPage;
  /**
   * Whether a QR_CODE intent proceeded with the method shows a QR code its provider's app answers (the QR
   * page, the wallet app).
   */
  showsQrCodeForQrIntents: boolean;
  userListing: UserListing;
  /**
   * Provider work before the payment is locked. Null when there is none to do (the transaction
   * re-checks everything under its lock). `payment` and `methodEnabled` are the proceed's read.
   */
  prepareProceed(
    db: Db,
    options: { principal: ProceedPrincipal; payment: PaymentRow; methodEnabled: boolean; now: Date },
  ): Promise<Prepared | null>;
  /** Inside the proceed's transaction, the payment locked and CREATED. */
  proceed: ProceedHandler<Prepared>;
  /**
   * After a proceed the transaction refused or found expired: undoes what prepareProceed opened (e.g. a QR
   * request).
   */
  withdrawPrepared(db: Db, options: { paymentId: string; prepared: Prepared | null }): Promise<void>;
  /**
   * The method's own charge that a proceed of a payment past CREATED takes up again (a retry);
   * null: the proceed is refused as for any payment past CREATED.
   */
  chargeToRetryOnProceed(
    tx: Db,
    options: { principal: ProceedPrincipal; payment: PaymentRow; operationKey?: string },
  ): Promise<ProviderOperationRow | null>;
  /**
   * Sends a charge the proceed's transaction recorded (ProceedOutcome.pendingCharge) once it committed; the
   * settled payment.
   */
  completePendingCharge(db: Db, operation: ProviderOperationRow): Promise<PaymentRow>;
  /** The handler of every provider operation the method's payments record (PROVIDER_OPERATION_HANDLERS lists them). */
  providerOperations: readonly ProviderOperationHandler[];
  /**
   * How the method's funds move: its provider, how a reservation is returned, what each operation sends, what
   * its expiry closes.
   */
  funds: MethodFunds;
  /** A REDIRECT method's provider (contract 15; lib/payment-methods/redirect does the rest); null for the others. */
  redirect: RedirectProvider | null;
  /** How the console names the method's payments (contract 13): the payments list's method column and filter. */
  console: ConsoleListing;
  /** What check's endUserMessage tells the buyer in the two states whose words depend on the method. */
  endUserMessages: MethodEndUserMessages;
}

/**
 * The method in the console's payments list, its export and its home figures. `kind` is the
 * value of its filter in the list's URL (`?method=satim`) and the key of its words under
 * `consolePayments.method` (messages/console/<locale>.json, or a redirect provider's declaration
 * messages); `showsCard`: its column names the card's brand and last 4 (`method.card`). A QR
 * intent is `qr_wallet` whatever its method.
 */
export interface ConsoleListing {
  kind: string;
  showsCard: boolean;
}

/**
 * Every part of the interface, which tests/unit/payment-method-registry.test.ts checks each registered method
 * provides.
 */
export const PAYMENT_METHOD_PARTS = [
  "code",
  "hostedStep",
  "showsQrCodeForQrIntents",
  "userListing",
  "prepareProceed",
  "proceed",
  "withdrawPrepared",
  "chargeToRetryOnProceed",
  "completePendingCharge",
  "providerOperations",
  "funds",
  "redirect",
  "console",
  "endUserMessages",
] as const satisfies readonly (keyof PaymentMethodModule)[];

// Fails to compile when the interface gains a part PAYMENT_METHOD_PARTS does not list.
type UnlistedPart = Exclude<keyof PaymentMethodModule, (typeof PAYMENT_METHOD_PARTS)[number]>;
export const paymentMethodPartsCoverInterface: [UnlistedPart] extends [never] ? true : never = true;
