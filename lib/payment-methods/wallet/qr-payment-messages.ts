import { FAILURE_REASON } from "../../payments/core/payment-messages";
import type { PaymentState } from "../../payments/core/payment-state";

/** Interface "Check result": in the QR case endUserMessage is an object keyed by language. */
export interface LocalizedMessage {
  en: string;
  fr: string;
  ar: string;
}

/**
 * What the buyer of a QR payment may be shown, in the three languages of the hosted pages.
 * Where the wording is not QR-specific, the English is endUserMessage()'s (a unit test holds
 * them equal), so the two cases never tell a buyer different things.
 */
export function qrEndUserMessage(state: PaymentState, failureReason: string | null): LocalizedMessage {
  switch (state) {
    case "CREATED":
      return {
        en: "Your payment is being processed.",
        fr: "Votre paiement est en cours de traitement.",
        ar: "عملية الدفع قيد المعالجة.",
      };
    // A QR payment never waits for an OTP; REQUIRES_ACTION is listed only to keep the switch whole.
    case "PROCESSING":
    case "REQUIRES_ACTION":
      return {
        en: "Scan the QR code and confirm the payment in your wallet app.",
        fr: "Scannez le code QR et confirmez le paiement dans votre application de portefeuille.",
        ar: "امسح رمز QR وأكّد عملية الدفع في تطبيق محفظتك.",
      };
    case "PRE_AUTHORIZED":
      return {
        en: "The amount is reserved on your wallet.",
        fr: "Le montant est réservé sur votre portefeuille.",
        ar: "تم حجز المبلغ في محفظتك.",
      };
    case "SUCCEEDED":
      return {
        en: "Your payment was successful.",
        fr: "Votre paiement a été effectué avec succès.",
        ar: "تمت عملية الدفع بنجاح.",
      };
    case "FAILED":
      switch (failureReason) {
        case FAILURE_REASON.insufficientFunds:
          return {
            en: "Your wallet balance is insufficient for this payment.",
            fr: "Le solde de votre portefeuille est insuffisant pour ce paiement.",
            ar: "رصيد محفظتك غير كافٍ لهذه العملية.",
          };
        case FAILURE_REASON.expired:
          return {
            en: "The payment expired before it was completed.",
            fr: "Le paiement a expiré avant d'être finalisé.",
            ar: "انتهت صلاحية عملية الدفع قبل إتمامها.",
          };
        case FAILURE_REASON.qrDeclined:
          return {
            en: "You declined the payment in your wallet app.",
            fr: "Vous avez refusé le paiement dans votre application de portefeuille.",
            ar: "لقد رفضت عملية الدفع في تطبيق محفظتك.",
          };
        default:
          return {
            en: "Your payment was declined.",
            fr: "Votre paiement a été refusé.",
            ar: "تم رفض عملية الدفع.",
          };
      }
    case "CANCELED":
      return {
        en: "The reservation was released; you were not charged.",
        fr: "La réservation a été libérée ; aucun montant n'a été débité.",
        ar: "تم إلغاء الحجز ولم يُخصم منك أي مبلغ.",
      };
    case "REFUNDED":
      return {
        en: "Your payment was refunded.",
        fr: "Votre paiement a été remboursé.",
        ar: "تم استرداد مبلغ عملية الدفع.",
      };
    case "PARTIALLY_REFUNDED":
      return {
        en: "Part of your payment was refunded.",
        fr: "Une partie de votre paiement a été remboursée.",
        ar: "تم استرداد جزء من مبلغ عملية الدفع.",
      };
  }
}
