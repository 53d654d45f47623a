import { Button } from "@/components/button";
import { Island } from "@/components/island";
import { StatusBanner } from "@/components/status-banner";
import { CARD_FORM_IDS as IDS, NEW_CARD, type CardFormConfig } from "@/components/islands/card/card-form-config";
import type { CardFormText } from "./card-form-text";

export interface CardFormSavedCard {
  id: string;
  /** "Visa ending in 4242", in the page's language. */
  label: string;
  /** "Expires 12/29", when known. */
  description?: string;
  /** The brand as the badge shows it ("Visa"). */
  badge: string;
}

export interface CardFormProps {
  savedCards: CardFormSavedCard[];
  checkedCardId: string | null;
  /** Every word the form's HTML shows, translated on the server. */
  text: CardFormText;
  /** What the card-form island runs the payment with. */
  island: CardFormConfig;
}

const RADIO_GROUP = "card-choice";

/**
 * The card form as HTML: everything is rendered here, in the page's language, and the
 * card-form island (components/islands/card-form.ts, given `CardFormConfig`) mounts the
 * provider's card Elements into the field boxes and runs the payment. Pay stays disabled until
 * the island has loaded Stripe.js. The form has no action and no named card input: it is never
 * posted, card details go from the provider's fields to the provider only.
 */
export function CardForm({ savedCards, checkedCardId, text, island }: CardFormProps) {
  const checked = checkedCardId ?? savedCards[0]?.id ?? NEW_CARD;
  return (
    <form id={IDS.form} noValidate className="flex flex-col gap-5">
      {/* The island inserts copies of these where needed (an alert is announced as it appears). */}
      <template id={IDS.problemTemplate}>
        <div role="alert">
          <StatusBanner tone="error">
            <span data-problem-text="" />
          </StatusBanner>
        </div>
      </template>
      <template id={IDS.fieldErrorTemplate}>
        <p role="alert" className="text-sm font-medium text-rose-700" />
      </template>

      {savedCards.length > 0 ? (
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-3 text-sm font-semibold text-slate-800">{text.methodLegend}</legend>
          {savedCards.map((card) => (
            <Choice
              key={card.id}
              value={card.id}
              checked={checked === card.id}
              label={card.label}
              description={card.description}
              badge={card.badge}
            />
          ))}
          <Choice value={NEW_CARD} checked={checked === NEW_CARD} label={text.newCard} />
        </fieldset>
      ) : null}

      <div id={IDS.newCard} hidden={checked !== NEW_CARD} className="flex flex-col gap-4">
        <ElementField field="number" label={text.numberLabel} hint={text.numberHint} mono />
        <div className="grid grid-cols-2 gap-4">
          <ElementField field="expiry" label={text.expiryLabel} hint={text.expiryHint} />
          <ElementField field="cvc" label={text.cvcLabel} hint={text.cvcHint} />
        </div>
        <div className="flex items-start gap-3">
          <input
            id={IDS.save}
            type="checkbox"
            aria-describedby={`${IDS.save}-hint`}
            className={
              "mt-0.5 size-5 shrink-0 accent-teal-700 focus-visible:outline-3 " +
              "focus-visible:outline-offset-2 focus-visible:outline-teal-600"
            }
          />
          <div className="flex flex-col gap-1">
            <label htmlFor={IDS.save} className="text-sm font-semibold text-slate-800">
              {text.saveCard}
            </label>
            <p id={`${IDS.save}-hint`} className="text-sm text-slate-600">
              {text.saveCardHint}
            </p>
          </div>
        </div>
      </div>

      <Button id={IDS.pay} type="submit" disabled>
        <span
          data-spinner=""
          hidden
          aria-hidden="true"
          className="size-4 animate-spin rounded-full border-2 border-current border-e-transparent"
        />
        {text.pay}
      </Button>
      <p id={IDS.paying} role="status" className="sr-only" />
      <Island name="card-form" config={island} />
    </form>
  );
}

/**
 * A label, hint and error slot around the box a card element mounts into. Stripe's iframe
 * draws its own field; the sandbox's stand-in mounts an input that takes its name, description
 * and invalid state from the box's data-aria-* attributes, which the island keeps up to date.
 */
function ElementField({
  field,
  label,
  hint,
  mono,
}: {
  field: "number" | "expiry" | "cvc";
  label: string;
  hint: string;
  mono?: boolean;
}) {
  const id = IDS.field(field);
  return (
    <div className="flex flex-col gap-2">
      <label id={`${id}-label`} className="text-sm font-semibold text-slate-800">
        {label}
      </label>
      <div
        id={id}
        data-aria-labelledby={`${id}-label`}
        data-aria-describedby={`${id}-hint`}
        className={
          "flex min-h-12 w-full items-center rounded-xl border border-slate-300 bg-white px-4 text-lg " +
          "text-slate-900 shadow-inner shadow-slate-100 " +
          "data-[aria-invalid=true]:border-rose-600 " +
          "has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-1 " +
          "has-[:focus-visible]:outline-teal-600 " +
          "[&_input]:w-full [&_input]:bg-transparent [&_input]:outline-none [&_input]:placeholder:text-slate-400 " +
          "[&>*]:w-full " +
          (mono ? "font-mono tracking-wider" : "font-mono")
        }
      />
      {/* The island inserts the field's error (role=alert) here. */}
      <p id={`${id}-hint`} className="text-sm text-slate-600">
        {hint}
      </p>
    </div>
  );
}

function Choice(props: { value: string; checked: boolean; label: string; description?: string; badge?: string }) {
  const id = `card-choice-${props.value}`;
  // The whole row is clickable, while the radio's accessible name stays exactly the label; its
  // look follows the radio in CSS, so it is right before the island runs too.
  return (
    <label
      htmlFor={id}
      className={
        "flex cursor-pointer items-center gap-3 rounded-xl border px-4 py-3 transition-colors " +
        "has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-teal-600 " +
        "has-checked:border-teal-700 has-checked:bg-teal-50 " +
        "not-has-checked:border-slate-300 not-has-checked:bg-white not-has-checked:hover:bg-slate-50"
      }
    >
      <input
        id={id}
        type="radio"
        name={RADIO_GROUP}
        value={props.value}
        defaultChecked={props.checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={props.description ? `${id}-description` : undefined}
        className="size-5 shrink-0 accent-teal-700 focus-visible:outline-none"
      />
      <span className="flex flex-1 flex-col">
        <span id={`${id}-label`} className="font-semibold text-slate-900">
          {props.label}
        </span>
        {props.description ? (
          <span id={`${id}-description`} className="text-sm text-slate-600">
            {props.description}
          </span>
        ) : null}
      </span>
      {props.badge ? (
        <span
          aria-hidden="true"
          className="rounded-md bg-slate-900 px-2 py-1 text-xs font-bold tracking-wide text-white uppercase"
          dir="ltr"
        >
          {props.badge}
        </span>
      ) : null}
    </label>
  );
}
