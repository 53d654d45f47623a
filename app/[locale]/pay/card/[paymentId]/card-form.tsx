"use client";

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/button";
import { Field } from "@/components/field";
import { StatusBanner } from "@/components/status-banner";
import {
  brandName,
  checkCardNumber,
  checkCvc,
  checkExpiry,
  detectBrand,
  formatCardNumber,
  formatExpiry,
  normalizeDigits,
} from "@/lib/cards/card-number";
import type { Locale } from "@/lib/i18n/routing";

export interface CardFormSavedCard {
  id: string;
  brand: string;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
  paymentMethodId: string;
}

export interface CardFormProps {
  locale: Locale;
  confirmation: { publishableKey: string; clientSecret: string; confirmUrl: string; paymentIntentId: string };
  /** The gateway step the buyer returns to (absolute, with the page token). */
  completeUrl: string;
  savedCards: CardFormSavedCard[];
  checkedCardId: string | null;
  /** The Pay button's words, with the amount ("Pay DZD 1,250.75"); "Pay" without it. */
  payLabel?: string;
}

const NEW_CARD = "new";

type FieldName = "number" | "expiry" | "cvc";
type FieldErrors = Partial<Record<FieldName, string>>;
type Problem = "savedCardUnavailable" | "error" | "fixErrors" | null;

/**
 * The card entry. The number and CVC live only in this component's state and go from the
 * browser straight to the card provider with the service's publishable key (as with a real
 * provider's script): no gateway server code receives them, and the inputs carry no `name`,
 * so not even a form submitted before the script runs could send them anywhere.
 */
export function CardForm({ locale, confirmation, completeUrl, savedCards, checkedCardId, payLabel }: CardFormProps) {
  const t = useTranslations("card");
  const formId = useId();
  const [choice, setChoice] = useState<string>(checkedCardId ?? savedCards[0]?.id ?? NEW_CARD);
  const [number, setNumber] = useState("");
  const [expiry, setExpiry] = useState("");
  const [cvc, setCvc] = useState("");
  const [save, setSave] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<Problem>(null);
  const [paying, setPaying] = useState(false);
  const [ready, setReady] = useState(false);
  const inputs = { number: useRef<HTMLInputElement>(null), expiry: useRef<HTMLInputElement>(null), cvc: useRef<HTMLInputElement>(null) };

  // Until the script runs, Pay stays disabled: without it nothing could reach the provider.
  useEffect(() => setReady(true), []);

  const newCard = choice === NEW_CARD;
  const brand = detectBrand(number);

  function validate(): { card: { number: string; expMonth: number; expYear: number; cvc: string } } | null {
    const found: FieldErrors = {};
    const checkedNumber = checkCardNumber(number);
    if (!checkedNumber.ok) {
      found.number = {
        required: t("numberRequired"),
        unsupported_brand: t("numberUnsupported"),
        incomplete: t("numberIncomplete"),
        luhn: t("numberLuhn"),
      }[checkedNumber.problem];
    }
    const checkedExpiry = checkExpiry(expiry, new Date());
    if (!checkedExpiry.ok) {
      found.expiry = { required: t("expiryRequired"), format: t("expiryFormat"), past: t("expiryPast") }[checkedExpiry.problem];
    }
    const checkedCvc = checkCvc(cvc);
    if (!checkedCvc.ok) found.cvc = { required: t("cvcRequired"), format: t("cvcFormat") }[checkedCvc.problem];
    setErrors(found);
    const firstInvalid = (["number", "expiry", "cvc"] as const).find((name) => found[name]);
    if (firstInvalid) {
      inputs[firstInvalid].current?.focus();
      return null;
    }
    if (!checkedNumber.ok || !checkedExpiry.ok || !checkedCvc.ok) return null;
    return {
      card: { number: checkedNumber.digits, expMonth: checkedExpiry.month, expYear: checkedExpiry.year, cvc: checkedCvc.cvc },
    };
  }

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (paying) return;
    setProblem(null);
    const saved = savedCards.find((card) => card.id === choice);
    let method: Record<string, unknown>;
    if (saved) {
      setErrors({});
      method = { payment_method: saved.paymentMethodId };
    } else {
      const data = validate();
      if (!data) {
        setProblem("fixErrors");
        return;
      }
      method = { payment_method_data: data, setup_future_usage: save };
    }

    setPaying(true);
    try {
      const response = await fetch(confirmation.confirmUrl, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${confirmation.publishableKey}` },
        body: JSON.stringify({ client_secret: confirmation.clientSecret, return_url: completeUrl, locale, ...method }),
      });
      const answer = (await response.json().catch(() => null)) as ProviderAnswer | null;
      if (response.ok && answer && "status" in answer) {
        // The card details leave the page's memory before it moves on.
        setNumber("");
        setCvc("");
        const next = answer.next_action?.redirect_to_url.url;
        window.location.assign(next ?? `${completeUrl}&payment_intent=${encodeURIComponent(answer.id)}`);
        return;
      }
      setPaying(false);
      const code = answer && "error" in answer ? answer.error.code : null;
      if (saved) {
        setProblem(code === "resource_missing" || code === "expired_card" ? "savedCardUnavailable" : "error");
      } else if (code === "incorrect_number" || code === "card_not_supported") {
        setErrors({ number: code === "incorrect_number" ? t("numberLuhn") : t("numberUnsupported") });
        inputs.number.current?.focus();
        setProblem("fixErrors");
      } else if (code === "invalid_expiry") {
        setErrors({ expiry: t("expiryPast") });
        inputs.expiry.current?.focus();
        setProblem("fixErrors");
      } else if (code === "incorrect_cvc") {
        setErrors({ cvc: t("cvcFormat") });
        inputs.cvc.current?.focus();
        setProblem("fixErrors");
      } else {
        setProblem("error");
      }
    } catch {
      setPaying(false);
      setProblem("error");
    }
  }

  const clearError = (name: FieldName) => setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));

  return (
    <form onSubmit={pay} noValidate className="flex flex-col gap-5" aria-describedby={problem ? `${formId}-problem` : undefined}>
      {/* Inserted when needed: an alert is announced as it appears, and leaves no gap when absent. */}
      {problem ? (
        <div id={`${formId}-problem`} role="alert">
          <StatusBanner tone="error">{t(problem)}</StatusBanner>
        </div>
      ) : null}

      {savedCards.length > 0 ? (
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-3 text-sm font-semibold text-slate-800">{t("methodLegend")}</legend>
          {savedCards.map((card) => (
            <Choice
              key={card.id}
              id={`${formId}-card-${card.id}`}
              group={`${formId}-method`}
              value={card.id}
              checked={choice === card.id}
              onSelect={setChoice}
              label={t("savedCard", { brand: brandName(card.brand), last4: card.last4 })}
              description={
                card.expMonth && card.expYear
                  ? t("savedCardExpiry", { month: String(card.expMonth).padStart(2, "0"), year: String(card.expYear).slice(-2) })
                  : undefined
              }
              badge={<BrandBadge brand={card.brand} />}
            />
          ))}
          <Choice
            id={`${formId}-new`}
            group={`${formId}-method`}
            value={NEW_CARD}
            checked={newCard}
            onSelect={setChoice}
            label={t("newCard")}
          />
        </fieldset>
      ) : null}

      {newCard ? (
        <div className="flex flex-col gap-4">
          <Field
            ref={inputs.number}
            id={`${formId}-number`}
            label={t("numberLabel")}
            hint={brand ? t("brandDetected", { brand: brandName(brand) }) : t("numberHint")}
            error={errors.number}
            value={number}
            onChange={(event) => {
              setNumber(formatCardNumber(event.target.value));
              clearError("number");
            }}
            type="text"
            inputMode="numeric"
            autoComplete="cc-number"
            spellCheck={false}
            autoCorrect="off"
            maxLength={23}
            placeholder="1234 1234 1234 1234"
            dir="ltr"
            className="font-mono tracking-wider"
          />
          <div className="grid grid-cols-2 gap-4">
            <Field
              ref={inputs.expiry}
              id={`${formId}-expiry`}
              label={t("expiryLabel")}
              hint={t("expiryHint")}
              error={errors.expiry}
              value={expiry}
              onChange={(event) => {
                setExpiry(formatExpiry(event.target.value));
                clearError("expiry");
              }}
              type="text"
              inputMode="numeric"
              autoComplete="cc-exp"
              maxLength={5}
              placeholder={t("expiryPlaceholder")}
              dir="ltr"
              className="font-mono"
            />
            <Field
              ref={inputs.cvc}
              id={`${formId}-cvc`}
              label={t("cvcLabel")}
              hint={t("cvcHint")}
              error={errors.cvc}
              value={cvc}
              onChange={(event) => {
                setCvc(normalizeDigits(event.target.value).replace(/\D/g, "").slice(0, 3));
                clearError("cvc");
              }}
              type="text"
              inputMode="numeric"
              autoComplete="cc-csc"
              maxLength={3}
              dir="ltr"
              className="font-mono"
            />
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
                {t("saveCard")}
              </label>
              <p id={`${formId}-save-hint`} className="text-sm text-slate-600">
                {t("saveCardHint")}
              </p>
            </div>
          </div>
        </div>
      ) : null}

      <Button type="submit" disabled={!ready || paying} aria-describedby={paying ? `${formId}-paying` : undefined}>
        {paying ? <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-current border-e-transparent" /> : null}
        {payLabel ?? t("pay")}
      </Button>
      <p id={`${formId}-paying`} role="status" className="sr-only">
        {paying ? t("paying") : ""}
      </p>
    </form>
  );
}

type ProviderAnswer =
  | { id: string; status: string; next_action: { redirect_to_url: { url: string } } | null }
  | { error: { code: string; message: string } };

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
      {brandName(brand)}
    </span>
  );
}
