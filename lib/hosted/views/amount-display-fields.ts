/** Who asks for how much: the AmountDisplay every hosted page shows. */
export interface AmountDisplayFields {
  merchantName: string;
  /** Standard units, as the API renders them. */
  amount: number;
  currency: string;
}

export function amountDisplayFields(payment: AmountDisplayFields): AmountDisplayFields {
  return { merchantName: payment.merchantName, amount: payment.amount, currency: payment.currency };
}
