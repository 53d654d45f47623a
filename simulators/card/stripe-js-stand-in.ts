/*
 * The sandbox's local stand-in for Stripe.js (https://js.stripe.com/v3), for the subset the
 * hosted card page uses: `Stripe(publishableKey, { locale })`, `stripe.elements()`, the split
 * card elements (`cardNumber`, `cardExpiry`, `cardCvc`: mount, unmount, on("change"|"ready"),
 * focus, clear), `stripe.confirmCardPayment(clientSecret, data, { handleActions })` and
 * `stripe.handleNextAction({ clientSecret })`, with Stripe.js's result shapes
 * (`{ paymentIntent }` or `{ error: { type, code, decline_code, payment_intent } }`).
 *
 * Card details live only in this script's inputs and go from the browser straight to the
 * provider's confirm endpoint in Stripe's own wire format (a form-encoded POST with the
 * publishable key as `key`, answered with a PaymentIntent, or a 402 whose `error` carries it),
 * never to gateway code, just as Stripe.js sends them to api.stripe.com. So a browser whose
 * js.stripe.com and api.stripe.com are routed to `npm run card-simulator` runs a production card
 * page unchanged, and the sandbox gateway serves the same script beside its own confirm endpoint.
 * Unlike Stripe's iframes, its inputs are in the page, so the page's labels reach them: a mount
 * container's `data-aria-labelledby`, `data-aria-describedby` and `data-aria-invalid` are mirrored
 * onto the input (Stripe.js ignores these attributes).
 *
 * The function is served as its own source text (`(${stripeJsStandIn})(window)`), so it must
 * not use anything from outside its body.
 */

type Listener = (event: unknown) => void;

export function stripeJsStandIn(win: Window & { Stripe?: unknown }): void {
  const doc = win.document;
  const script = doc.currentScript as HTMLScriptElement | null;
  // Loaded as https://js.stripe.com/v3, it talks to https://api.stripe.com/v1 as Stripe.js does;
  // elsewhere the provider's API sits beside the script: .../js/v3 or .../v3 → .../v1.
  const scriptUrl = script && script.src ? new URL(script.src) : null;
  const apiBase = !scriptUrl
    ? "/api/card-provider-sandbox/v1"
    : scriptUrl.hostname === "js.stripe.com"
      ? "https://api.stripe.com/v1"
      : `${scriptUrl.origin}${scriptUrl.pathname.replace(/(\/js)?\/v3$/, "/v1")}`;

  const digitsOf = (raw: string) =>
    raw
      .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
      .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
      .replace(/\D/g, "");
  const brandOf = (digits: string) =>
    /^4/.test(digits)
      ? "visa"
      : /^(5[1-5]|2[2-7])/.test(digits)
        ? "mastercard"
        : /^3[47]/.test(digits)
          ? "amex"
          : /^6/.test(digits)
            ? "discover"
            : "unknown";
  const luhn = (digits: string) => {
    let sum = 0;
    for (let index = 0; index < digits.length; index += 1) {
      let digit = Number(digits[digits.length - 1 - index]);
      if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    return sum % 10 === 0;
  };

  interface Group {
    byType: Record<string, StandInElement>;
  }
  interface State {
    empty: boolean;
    complete: boolean;
    error?: { type: "validation_error"; code: string; message: string };
    brand?: string;
  }
  interface StandInElement {
    type: string;
    input: HTMLInputElement;
    state(): State;
    digits(): string;
  }

  const error = (code: string, message: string) => ({ type: "validation_error" as const, code, message });

  function stateOf(type: string, digits: string): State {
    const empty = digits.length === 0;
    if (type === "cardNumber") {
      const brand = brandOf(digits);
      const length = brand === "amex" ? 15 : 16;
      if (digits.length < length) return { empty, complete: false, brand };
      if (digits.length > length || !luhn(digits))
        return { empty, complete: false, brand, error: error("invalid_number", "Your card number is invalid.") };
      return { empty, complete: true, brand };
    }
    if (type === "cardExpiry") {
      if (digits.length < 4) return { empty, complete: false };
      const month = Number(digits.slice(0, 2));
      const year = 2000 + Number(digits.slice(2, 4));
      if (month < 1 || month > 12)
        return {
          empty,
          complete: false,
          error: error("invalid_expiry_month", "Your card's expiration date is incomplete."),
        };
      const now = new Date();
      if (year < now.getFullYear())
        return {
          empty,
          complete: false,
          error: error("invalid_expiry_year_past", "Your card's expiration year is in the past."),
        };
      if (year === now.getFullYear() && month < now.getMonth() + 1) {
        return {
          empty,
          complete: false,
          error: error("invalid_expiry_month_past", "Your card's expiration date is in the past."),
        };
      }
      return { empty, complete: true };
    }
    return digits.length === 3 ? { empty, complete: true } : { empty, complete: false };
  }

  function format(type: string, digits: string): string {
    if (type === "cardNumber") {
      const groups = brandOf(digits) === "amex" ? [4, 6, 5] : [4, 4, 4, 4, 3];
      const parts: string[] = [];
      let at = 0;
      for (const size of groups) {
        if (at >= digits.length) break;
        parts.push(digits.slice(at, at + size));
        at += size;
      }
      return parts.join(" ");
    }
    if (type === "cardExpiry") return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2, 4)}` : digits;
    return digits.slice(0, 3);
  }

  const INPUT: Record<string, { autocomplete: string; maxLength: number; limit: number }> = {
    cardNumber: { autocomplete: "cc-number", maxLength: 23, limit: 19 },
    cardExpiry: { autocomplete: "cc-exp", maxLength: 5, limit: 4 },
    cardCvc: { autocomplete: "cc-csc", maxLength: 3, limit: 3 },
  };
  const MIRRORED = ["aria-labelledby", "aria-describedby", "aria-invalid"];

  function createElement(group: Group, type: string, options: { placeholder?: string }) {
    const spec = INPUT[type];
    if (!spec) throw new Error(`The sandbox Stripe.js supports cardNumber, cardExpiry and cardCvc, not ${type}.`);
    const input = doc.createElement("input");
    input.type = "text";
    input.inputMode = "numeric";
    input.autocomplete = spec.autocomplete as AutoFill;
    input.maxLength = spec.maxLength;
    input.spellcheck = false;
    input.dir = "ltr";
    input.setAttribute("autocorrect", "off");
    if (options.placeholder !== undefined) input.placeholder = options.placeholder;
    const listeners: Record<string, Listener[]> = {};
    const emit = (name: string, event: unknown) => (listeners[name] ?? []).forEach((listener) => listener(event));
    let observer: MutationObserver | null = null;
    const digits = () => digitsOf(input.value).slice(0, spec.limit);
    const state = () => stateOf(type, digits());
    input.addEventListener("input", () => {
      input.value = format(type, digits());
      emit("change", { elementType: type, ...state() });
    });
    input.addEventListener("focus", () => emit("focus", { elementType: type }));
    input.addEventListener("blur", () => emit("blur", { elementType: type }));
    const element = {
      mount(target: string | HTMLElement) {
        const container = typeof target === "string" ? doc.querySelector<HTMLElement>(target) : target;
        if (!container) throw new Error("The mount target was not found.");
        element.unmount();
        const mirror = () => {
          for (const name of MIRRORED) {
            const value = container.getAttribute(`data-${name}`);
            if (value) input.setAttribute(name, value);
            else input.removeAttribute(name);
          }
        };
        mirror();
        observer = new MutationObserver(mirror);
        observer.observe(container, { attributes: true, attributeFilter: MIRRORED.map((name) => `data-${name}`) });
        container.appendChild(input);
        setTimeout(() => emit("ready", { elementType: type }), 0);
      },
      unmount() {
        observer?.disconnect();
        observer = null;
        input.remove();
      },
      destroy() {
        element.unmount();
        delete group.byType[type];
      },
      on(name: string, listener: Listener) {
        (listeners[name] ??= []).push(listener);
        return element;
      },
      off(name: string, listener: Listener) {
        listeners[name] = (listeners[name] ?? []).filter((known) => known !== listener);
        return element;
      },
      focus: () => input.focus(),
      blur: () => input.blur(),
      clear() {
        input.value = "";
        emit("change", { elementType: type, ...state() });
      },
      update(next: { placeholder?: string }) {
        if (next.placeholder !== undefined) input.placeholder = next.placeholder;
      },
    };
    group.byType[type] = { type, input, state, digits };
    return element;
  }

  interface StripeIntent {
    id: string;
    status: string;
    payment_method?: string | null;
    next_action?: { type: string; redirect_to_url: { url: string } } | null;
  }
  /** Stripe's answer to a confirm: the PaymentIntent, or an error (a refused card's carries the intent). */
  type ProviderAnswer = Partial<StripeIntent> & {
    error?: { type?: string; code?: string; decline_code?: string; message?: string; payment_intent?: StripeIntent };
  };

  // Stripe.js takes `{ locale }` for its own texts; the stand-in's inputs have none.
  function Stripe(publishableKey: string) {
    // Stripe.js reads the sibling expiry and CVC from the card number element's group.
    const groupOf = new WeakMap<object, Group>();
    const stripe = {
      elements() {
        const group: Group = { byType: {} };
        const created: Record<string, object> = {};
        return {
          create(type: string, elementOptions: { placeholder?: string } = {}) {
            const element = createElement(group, type, elementOptions);
            groupOf.set(element, group);
            created[type] = element;
            return element;
          },
          getElement: (type: string) => created[type] ?? null,
        };
      },

      async confirmCardPayment(
        clientSecret: string,
        data: { payment_method?: string | { card: unknown }; setup_future_usage?: string; return_url?: string } = {},
        confirmOptions: { handleActions?: boolean } = {},
      ) {
        const intentId = clientSecret.split("_secret_")[0] ?? "";
        const body = new URLSearchParams({ key: publishableKey, client_secret: clientSecret });
        if (data.return_url) body.set("return_url", data.return_url);
        if (typeof data.payment_method === "string") {
          body.set("payment_method", data.payment_method);
        } else {
          const card = data.payment_method?.card;
          const group = card && typeof card === "object" ? groupOf.get(card) : undefined;
          const number = group?.byType.cardNumber;
          const expiry = group?.byType.cardExpiry;
          const cvc = group?.byType.cardCvc;
          if (!number || !expiry || !cvc)
            return { error: { type: "integration_error", message: "Mount cardNumber, cardExpiry and cardCvc." } };
          for (const [element, code] of [
            [number, "incomplete_number"],
            [expiry, "incomplete_expiry"],
            [cvc, "incomplete_cvc"],
          ] as const) {
            const state = element.state();
            if (!state.complete) return { error: state.error ?? error(code, "Your card details are incomplete.") };
          }
          const expiryDigits = expiry.digits();
          body.set("payment_method_data[type]", "card");
          body.set("payment_method_data[card][number]", number.digits());
          body.set("payment_method_data[card][exp_month]", String(Number(expiryDigits.slice(0, 2))));
          body.set("payment_method_data[card][exp_year]", String(2000 + Number(expiryDigits.slice(2, 4))));
          body.set("payment_method_data[card][cvc]", cvc.digits());
          if (data.setup_future_usage === "off_session" || data.setup_future_usage === "on_session")
            body.set("setup_future_usage", data.setup_future_usage);
        }
        let response: Response;
        let answer: ProviderAnswer | null;
        try {
          response = await fetch(`${apiBase}/payment_intents/${encodeURIComponent(intentId)}/confirm`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: body.toString(),
          });
          answer = (await response.json().catch(() => null)) as ProviderAnswer | null;
        } catch {
          return { error: { type: "api_connection_error", message: "The card provider could not be reached." } };
        }
        if (!response.ok || !answer || answer.error || !answer.id) {
          // Stripe.js hands Stripe's error on as it came (a refused card's with its intent).
          const type = answer?.error?.type ?? (response.status === 402 ? "card_error" : "invalid_request_error");
          return { error: { ...answer?.error, type } };
        }
        const paymentIntent = {
          id: answer.id,
          object: "payment_intent",
          status: answer.status,
          payment_method: answer.payment_method ?? null,
          next_action: answer.next_action ?? null,
        };
        if (
          paymentIntent.status === "requires_action" &&
          confirmOptions.handleActions !== false &&
          paymentIntent.next_action
        ) {
          win.location.assign(paymentIntent.next_action.redirect_to_url.url);
        }
        return { paymentIntent };
      },

      /** Sends the buyer to the 3DS page; the provider brings them back to the confirm's return_url. */
      async handleNextAction({ clientSecret }: { clientSecret: string }) {
        return {
          error: {
            type: "invalid_request_error",
            code: "payment_intent_unexpected_state",
            message: `Confirm ${clientSecret.split("_secret_")[0]} with return_url first.`,
          },
        };
      },
    };
    return stripe;
  }

  win.Stripe = Stripe;
}

/** The script the sandbox serves at its Stripe.js address. */
export function stripeJsStandInSource(): string {
  // Served from the function's own text. Under a TypeScript runner (tsx runs `npm run
  // card-simulator`) that text calls esbuild's name-keeping helper, so the page gets one too.
  const nameHelper =
    `var __name=function(target,value){` +
    `return Object.defineProperty(target,"name",{value:value,configurable:true})};`;
  return `;(function(){${nameHelper}(${stripeJsStandIn.toString()})(window);})();\n`;
}
