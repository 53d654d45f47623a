"use client";

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/button";
import { StatusBanner } from "@/components/status-banner";
import type { CardFormText } from "./card-form-text";
import { loadStripeJs, type StripeCardElement, type StripeElementChange, type StripeJs } from "@/components/islands/stripe-js";

export interface CardFormSavedCard {
  id: string;
  /** "Visa ending in 4242", in the page's language. */
  label: string;
  /** "Expires 12/29", when known. */
  description?: string;
  /** The brand as the badge shows it ("Visa"). */
  badge: string;
  paymentMethodId: string;
}

export interface CardFormProps {
  locale: string;
  confirmation: { stripeJsUrl: string; publishableKey: string; clientSecret: string };
  /** The gateway step the buyer returns to (absolute, with the page token). */
  completeUrl: string;
  savedCards: CardFormSavedCard[];
  checkedCardId: string | null;
  /** Every word the form shows, translated on the server. */
  text: CardFormText;
}

const NEW_CARD = "new";
const FIELDS = ["number", "expiry", "cvc"] as const;
type FieldName = (typeof FIELDS)[number];
type FieldErrors = Partial<Record<FieldName, string>>;
type Problem = "savedCardUnavailable" | "error" | "fixErrors" | null;
const ELEMENT_TYPE = { number: "cardNumber", expiry: "cardExpiry", cvc: "cardCvc" } as const;
const ACCEPTED_BRANDS = ["visa", "mastercard"];

/**
 * The card entry on the Stripe.js API: the number, expiry and CVC are Stripe Elements (Stripe's
 * own fields in production, the sandbox provider's stand-in in the sandbox), and the browser
 * confirms the payment intent with the provider using the publishable key. No card detail is
 * ever in this component's state or sent to the gateway; the page only reads what the elements
 * report (empty, complete, error code, brand).
 */
export function CardForm({ locale, confirmation, completeUrl, savedCards, checkedCardId, text }: CardFormProps) {
  const formId = useId();
  const [choice, setChoice] = useState<string>(checkedCardId ?? savedCards[0]?.id ?? NEW_CARD);
  const [save, setSave] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<Problem>(null);
  const [paying, setPaying] = useState(false);
  const [stripe, setStripe] = useState<StripeJs | null>(null);
  const [brand, setBrand] = useState<string | null>(null);
  const elements = useRef<Partial<Record<FieldName, StripeCardElement>>>({});
  const states = useRef<Partial<Record<FieldName, StripeElementChange>>>({});
  const containers = { number: useRef<HTMLDivElement>(null), expiry: useRef<HTMLDivElement>(null), cvc: useRef<HTMLDivElement>(null) };
  const newCard = choice === NEW_CARD;

  // Until Stripe.js has loaded, Pay stays disabled: without it nothing could reach the provider.
  useEffect(() => {
    let live = true;
    loadStripeJs(confirmation.stripeJsUrl).then(
      (Stripe) => live && setStripe(Stripe(confirmation.publishableKey, { locale })),
      () => live && setProblem("error"),
    );
    return () => {
      live = false;
    };
  }, [confirmation.stripeJsUrl, confirmation.publishableKey, locale]);

  useEffect(() => {
    if (!stripe || !newCard) return;
    if (!elements.current.number) {
      const group = stripe.elements({ locale });
      for (const field of FIELDS) {
        const element = group.create(ELEMENT_TYPE[field], { placeholder: field === "number" ? "1234 1234 1234 1234" : field === "expiry" ? text.expiryPlaceholder : "" });
        element.on("change", (change) => {
          states.current[field] = change;
          if (field === "number") setBrand(change.brand && ACCEPTED_BRANDS.includes(change.brand) ? change.brand : null);
          setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
        });
        elements.current[field] = element;
      }
    }
    for (const field of FIELDS) elements.current[field]!.mount(containers[field].current!);
    return () => FIELDS.forEach((field) => elements.current[field]?.unmount());
    // The containers exist exactly while a new card is chosen.
  }, [stripe, newCard]);

  /** The page's own rules on what the elements report; Stripe checks the card again on confirm. */
  function fieldErrors(): FieldErrors {
    const found: FieldErrors = {};
    const number = states.current.number;
    if (!number || number.empty) found.number = text.numberRequired;
    else if (number.error?.code === "invalid_number") found.number = text.numberLuhn;
    else if (number.brand && !ACCEPTED_BRANDS.includes(number.brand) && number.brand !== "unknown") found.number = text.numberUnsupported;
    else if (!number.complete) found.number = text.numberIncomplete;
    const expiry = states.current.expiry;
    if (!expiry || expiry.empty) found.expiry = text.expiryRequired;
    else if (expiry.error?.code.includes("past")) found.expiry = text.expiryPast;
    else if (!expiry.complete) found.expiry = text.expiryFormat;
    const cvc = states.current.cvc;
    if (!cvc || cvc.empty) found.cvc = text.cvcRequired;
    else if (!cvc.complete) found.cvc = text.cvcFormat;
    return found;
  }

  function showFieldErrors(found: FieldErrors) {
    setErrors(found);
    setProblem("fixErrors");
    const first = FIELDS.find((field) => found[field]);
    if (first) elements.current[first]?.focus();
  }

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (paying || !stripe) return;
    setProblem(null);
    const saved = savedCards.find((card) => card.id === choice);
    if (!saved) {
      const found = fieldErrors();
      if (FIELDS.some((field) => found[field])) return showFieldErrors(found);
    }
    setErrors({});
    setPaying(true);
    const result = await stripe.confirmCardPayment(
      confirmation.clientSecret,
      saved
        ? { payment_method: saved.paymentMethodId, return_url: completeUrl }
        : { payment_method: { card: elements.current.number! }, return_url: completeUrl, ...(save ? { setup_future_usage: "off_session" } : {}) },
      // 3DS: the buyer goes to the bank's page and comes back to completeUrl.
      { handleActions: false },
    );
    const intent = result.paymentIntent ?? result.error?.payment_intent;
    if (intent && (result.paymentIntent || result.error?.type === "card_error")) {
      // The card details leave the page's memory before it moves on.
      FIELDS.forEach((field) => elements.current[field]?.clear());
      const redirect = intent.status === "requires_action" && intent.next_action?.type === "redirect_to_url" ? intent.next_action.redirect_to_url?.url : null;
      if (intent.status === "requires_action" && !redirect) await stripe.handleNextAction({ clientSecret: confirmation.clientSecret });
      // A refused card is an answer too: the gateway reads it back and the payment fails.
      window.location.assign(redirect ?? `${completeUrl}&payment_intent=${encodeURIComponent(intent.id)}`);
      return;
    }
    setPaying(false);
    const code = result.error?.code ?? null;
    if (saved) setProblem(code === "resource_missing" || code === "expired_card" ? "savedCardUnavailable" : "error");
    else if (code === "incorrect_number" || code === "invalid_number") showFieldErrors({ number: text.numberLuhn });
    else if (code === "card_not_supported") showFieldErrors({ number: text.numberUnsupported });
    else if (code === "invalid_expiry" || code === "expired_card" || code === "invalid_expiry_year_past") showFieldErrors({ expiry: text.expiryPast });
    else if (code === "incorrect_cvc" || code === "invalid_cvc") showFieldErrors({ cvc: text.cvcFormat });
    else setProblem("error");
  }

  const brandHint = brand === "visa" ? text.brandDetectedVisa : brand === "mastercard" ? text.brandDetectedMastercard : text.numberHint;
  const problemText = problem ? text[problem] : null;

  return (
    <form onSubmit={pay} noValidate className="flex flex-col gap-5" aria-describedby={problem ? `${formId}-problem` : undefined}>
      {/* Inserted when needed: an alert is announced as it appears, and leaves no gap when absent. */}
      {problemText ? (
        <div id={`${formId}-problem`} role="alert">
          <StatusBanner tone="error">{problemText}</StatusBanner>
        </div>
      ) : null}

      {savedCards.length > 0 ? (
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-3 text-sm font-semibold text-slate-800">{text.methodLegend}</legend>
          {savedCards.map((card) => (
            <Choice
              key={card.id}
              id={`${formId}-card-${card.id}`}
              group={`${formId}-method`}
              value={card.id}
              checked={choice === card.id}
              onSelect={setChoice}
              label={card.label}
              description={card.description}
              badge={<BrandBadge brand={card.badge} />}
            />
          ))}
          <Choice id={`${formId}-new`} group={`${formId}-method`} value={NEW_CARD} checked={newCard} onSelect={setChoice} label={text.newCard} />
        </fieldset>
      ) : null}

      {newCard ? (
        <div className="flex flex-col gap-4">
          <ElementField id={`${formId}-number`} containerRef={containers.number} label={text.numberLabel} hint={brandHint} error={errors.number} mono />
          <div className="grid grid-cols-2 gap-4">
            <ElementField id={`${formId}-expiry`} containerRef={containers.expiry} label={text.expiryLabel} hint={text.expiryHint} error={errors.expiry} />
            <ElementField id={`${formId}-cvc`} containerRef={containers.cvc} label={text.cvcLabel} hint={text.cvcHint} error={errors.cvc} />
          </div>
          <div className="flex items-start gap-3">
            <input
              id={`${formId}-save`}
              type="checkbox"
              checked={save}
              onChange={(event) => setSave(event.target.checked)}
              aria-describedby={`${formId}-save-hint`}
              className="mt-0.5 size-5 shrink-0 accent-teal-700 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-teal-600"
            />
            <div className="flex flex-col gap-1">
              <label htmlFor={`${formId}-save`} className="text-sm font-semibold text-slate-800">
                {text.saveCard}
              </label>
              <p id={`${formId}-save-hint`} className="text-sm text-slate-600">
                {text.saveCardHint}
              </p>
            </div>
          </div>
        </div>
      ) : null}

      <Button type="submit" disabled={!stripe || paying} aria-describedby={paying ? `${formId}-paying` : undefined}>
        {paying ? <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-current border-e-transparent" /> : null}
        {text.pay}
      </Button>
      <p id={`${formId}-paying`} role="status" className="sr-only">
        {paying ? text.paying : ""}
      </p>
    </form>
  );
}

/**
 * A label, hint and error around the box a card element mounts into. Stripe's iframe draws
 * its own field; the sandbox's stand-in mounts an input that takes its name, description and
 * invalid state from the box's data-aria-* attributes.
 */
function ElementField(props: { id: string; containerRef: React.Ref<HTMLDivElement>; label: string; hint: string; error?: string; mono?: boolean }) {
  const { id, label, hint, error } = props;
  return (
    <div className="flex flex-col gap-2">
      <label id={`${id}-label`} className="text-sm font-semibold text-slate-800">
        {label}
      </label>
      <div
        id={id}
        ref={props.containerRef}
        data-aria-labelledby={`${id}-label`}
        data-aria-describedby={[error ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(" ")}
        data-aria-invalid={error ? "true" : undefined}
        className={
          "flex min-h-12 w-full items-center rounded-xl border bg-white px-4 text-lg text-slate-900 shadow-inner shadow-slate-100 " +
          "has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-teal-600 " +
          "[&_input]:w-full [&_input]:bg-transparent [&_input]:outline-none [&_input]:placeholder:text-slate-400 [&>*]:w-full " +
          (props.mono ? "font-mono tracking-wider " : "font-mono ") +
          (error ? "border-rose-600" : "border-slate-300")
        }
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-rose-700">
          {error}
        </p>
      ) : null}
      <p id={`${id}-hint`} className="text-sm text-slate-600">
        {hint}
      </p>
    </div>
  );
}

function Choice(props: {
  id: string;
  group: string;
  value: string;
  checked: boolean;
  onSelect: (value: string) => void;
  label: string;
  description?: string;
  badge?: ReactNode;
}) {
  // The whole row is clickable, while the radio's accessible name stays exactly the label.
  return (
    <label
      htmlFor={props.id}
      className={
        "flex cursor-pointer items-center gap-3 rounded-xl border px-4 py-3 transition-colors has-[:focus-visible]:outline-3 " +
        "has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-teal-600 " +
        (props.checked ? "border-teal-700 bg-teal-50" : "border-slate-300 bg-white hover:bg-slate-50")
      }
    >
      <input
        id={props.id}
        type="radio"
        name={props.group}
        value={props.value}
        checked={props.checked}
        onChange={() => props.onSelect(props.value)}
        aria-labelledby={`${props.id}-label`}
        aria-describedby={props.description ? `${props.id}-description` : undefined}
        className="size-5 shrink-0 accent-teal-700 focus-visible:outline-none"
      />
      <span className="flex flex-1 flex-col">
        <span id={`${props.id}-label`} className="font-semibold text-slate-900">
          {props.label}
        </span>
        {props.description ? (
          <span id={`${props.id}-description`} className="text-sm text-slate-600">
            {props.description}
          </span>
        ) : null}
      </span>
      {props.badge}
    </label>
  );
}

function BrandBadge({ brand }: { brand: string }) {
  return (
    <span aria-hidden="true" className="rounded-md bg-slate-900 px-2 py-1 text-xs font-bold tracking-wide text-white uppercase" dir="ltr">
      {brand}
    </span>
  );
}
