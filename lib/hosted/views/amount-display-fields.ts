/** Who asks for how much: the AmountDisplay every hosted page shows. */
export interface AmountShown {
  merchantName: string;
  /** Standard units, as the API renders them. */
  amount: number;
  currency: string;
}

export function amountShown(payment: AmountShown): AmountShown {
  return { merchantName: payment.merchantName, amount: payment.amount, currency: payment.currency };
}
