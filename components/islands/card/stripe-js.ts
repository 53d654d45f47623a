/**
 * The part of the Stripe.js API (https://docs.stripe.com/js) the card page uses, typed here
 * rather than through @stripe/stripe-js: the page loads the script itself (Stripe's own in
 * production, the sandbox provider's stand-in in the sandbox) and uses nothing else.
 */
export interface StripeElementChange {
  empty: boolean;
  complete: boolean;
  error?: { type: string; code: string; message: string };
  /** cardNumber only: "visa", "mastercard", "amex", ..., "unknown". */
  brand?: string;
}

export interface StripeCardElement {
  mount(target: HTMLElement): void;
  unmount(): void;
  on(event: "change", handler: (change: StripeElementChange) => void): StripeCardElement;
  focus(): void;
  clear(): void;
}

export interface StripeIntentResult {
  id: string;
  status: string;
  next_action?: { type: string; redirect_to_url?: { url: string } } | null;
}

export interface StripeConfirmResult {
  paymentIntent?: StripeIntentResult;
  error?: { type: string; code?: string; decline_code?: string; message?: string; payment_intent?: StripeIntentResult };
}

export interface StripeJs {
  elements(options?: { locale?: string }): {
    create(type: "cardNumber" | "cardExpiry" | "cardCvc", options?: { placeholder?: string }): StripeCardElement;
  };
  confirmCardPayment(
    clientSecret: string,
    data: {
      payment_method: string | { card: StripeCardElement };
      return_url: string;
      setup_future_usage?: "off_session";
    },
    options: { handleActions: boolean },
  ): Promise<StripeConfirmResult>;
  handleNextAction(options: { clientSecret: string }): Promise<StripeConfirmResult>;
}

type StripeConstructor = (publishableKey: string, options?: { locale?: string }) => StripeJs;

let loading: Promise<StripeConstructor> | null = null;

/**
 * Adds the Stripe.js script once, as Stripe's own loader does. The hosted pages' CSP admits it
 * through 'strict-dynamic' (the card-form island, a nonce'd module, inserts it) and, in production, js.stripe.com.
 */
export function loadStripeJs(src: string): Promise<StripeConstructor> {
  const ready = () => (window as unknown as { Stripe?: StripeConstructor }).Stripe;
  loading ??= new Promise<StripeConstructor>((resolve, reject) => {
    const existing = ready();
    if (existing) return resolve(existing);
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.addEventListener("load", () => {
      const Stripe = ready();
      if (Stripe) resolve(Stripe);
      else reject(new Error("Stripe.js did not load"));
    });
    script.addEventListener("error", () => {
      loading = null;
      reject(new Error("Stripe.js did not load"));
    });
    document.head.appendChild(script);
  });
  return loading;
}
