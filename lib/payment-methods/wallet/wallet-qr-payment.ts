/**
 * Whether the payment is a QR_CODE intent proceeded with the wallet, whose app answers it (the
 * QR page's and the wallet app's payments). The wallet's own hosted steps ask this instead of
 * the registry (isProceededQrPayment), which sits above the methods: WALLET_V2 is the one method
 * whose module says `showsQrCodeForQrIntents`.
 */
export function isWalletQrPayment(payment: {
  transactionType: string | null;
  paymentMethodCode: string | null;
}): boolean {
  return payment.transactionType === "QR_CODE" && payment.paymentMethodCode === "WALLET_V2";
}
