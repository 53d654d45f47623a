import type { ClictopayPageText } from "./clictopay-payment-page";

/** The simulated ClicToPay page's words in the order's language (ClicToPay serves fr, en and ar). */
export function clictopayPageText(language: string): ClictopayPageText {
  switch (language) {
    case "ar":
      return {
        title: "الدفع عبر كليك تو باي (محاكاة)",
        cardNumber: "رقم البطاقة",
        expiry: "تاريخ انتهاء الصلاحية",
        cvc: "رمز CVC",
        pay: "ادفع",
        cancel: "إلغاء",
        amount: "المبلغ:",
        challenge: "تحقق 3-D Secure",
        complete: "إتمام",
        fail: "فشل",
        badCard: "رقم البطاقة غير صالح.",
        badExpiry: "تاريخ الانتهاء غير صالح (MM/YY).",
        badCvc: "رمز CVC غير صالح.",
      };
    case "fr":
      return {
        title: "Paiement ClicToPay (simulateur)",
        cardNumber: "Numéro de carte",
        expiry: "Date d'expiration",
        cvc: "CVC",
        pay: "Payer",
        cancel: "Annuler",
        amount: "Montant\u00a0:",
        challenge: "Vérification 3-D Secure",
        complete: "Valider",
        fail: "Échouer",
        badCard: "Numéro de carte invalide.",
        badExpiry: "Date d'expiration invalide (MM/AA).",
        badCvc: "CVC invalide.",
      };
    default:
      return {
        title: "ClicToPay payment (simulator)",
        cardNumber: "Card number",
        expiry: "Expiry date",
        cvc: "CVC",
        pay: "Pay",
        cancel: "Cancel",
        amount: "Amount:",
        challenge: "3-D Secure verification",
        complete: "Complete",
        fail: "Fail",
        badCard: "The card number is not valid.",
        badExpiry: "The expiry date is not valid (MM/YY).",
        badCvc: "The CVC is not valid.",
      };
  }
}
