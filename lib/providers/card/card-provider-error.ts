/** A refusal of the provider's API, shaped like Stripe's `{ error: { type, code, message } }`. */
export class CardProviderError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    message: string,
    readonly declineCode?: string,
  ) {
    super(message);
    this.name = "CardProviderError";
  }
}
