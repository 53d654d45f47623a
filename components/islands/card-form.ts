import { CARD_FORM_IDS as IDS, NEW_CARD, type CardFormConfig } from "./card/card-form-config";
import {
  ELEMENT_TYPE,
  FIELDS,
  acceptedBrand,
  confirmOutcome,
  fieldErrors,
  numberHint,
  type FieldErrors,
  type FieldName,
  type Problem,
} from "./card/card-form-rules";
import { markIslandReady, readIslandConfig } from "./runtime";
import { loadStripeJs, type StripeCardElement, type StripeElementChange, type StripeJs } from "./card/stripe-js";

/*
 * The card page's behaviour on the server-rendered form (card-form.tsx beside the page): the
 * number, expiry and CVC are Stripe Elements (Stripe's own fields in production, the sandbox
 * provider's stand-in in the sandbox), and the browser confirms the payment intent with the
 * provider using the publishable key. No card detail is ever read here or sent to the gateway;
 * the island only reads what the elements report (empty, complete, error code, brand). The form
 * itself has no action and no card input has a name: it is never posted anywhere.
 */

const NAME = "card-form";
const config = readIslandConfig<CardFormConfig>(NAME);
const { text } = config;
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T | null;

const form = byId<HTMLFormElement>(IDS.form)!;
const pay = byId<HTMLButtonElement>(IDS.pay)!;
const payingStatus = byId<HTMLElement>(IDS.paying)!;
const newCardSection = byId<HTMLElement>(IDS.newCard)!;
const save = byId<HTMLInputElement>(IDS.save)!;
const radios = [...form.querySelectorAll<HTMLInputElement>('input[type="radio"]')];

let stripe: StripeJs | null = null;
let paying = false;
let mounted = false;
const elements: Partial<Record<FieldName, StripeCardElement>> = {};
const states: Partial<Record<FieldName, StripeElementChange>> = {};
const shownErrors: FieldErrors = {};

/** The radio's value; with no saved card there is no radio and a new card is the only way. */
const choice = () => radios.find((radio) => radio.checked)?.value ?? NEW_CARD;

function showFieldError(field: FieldName, message: string | undefined) {
  const id = IDS.field(field);
  const box = byId(id)!;
  byId(`${id}-error`)?.remove();
  shownErrors[field] = message;
  // The sandbox's stand-in mirrors these onto its input; Stripe's iframes ignore them.
  box.setAttribute("data-aria-describedby", message ? `${id}-error ${id}-hint` : `${id}-hint`);
  if (!message) return box.removeAttribute("data-aria-invalid");
  box.setAttribute("data-aria-invalid", "true");
  // Inserted when needed: an alert is announced as it appears, and leaves no gap when absent.
  const error = templateCopy(IDS.fieldErrorTemplate);
  error.id = `${id}-error`;
  error.textContent = message;
  byId(`${id}-hint`)!.before(error);
}

function showProblem(problem: Problem | null) {
  byId(IDS.problem)?.remove();
  if (!problem) return form.removeAttribute("aria-describedby");
  const banner = templateCopy(IDS.problemTemplate);
  banner.id = IDS.problem;
  banner.querySelector("[data-problem-text]")!.textContent = text[problem];
  form.prepend(banner);
  form.setAttribute("aria-describedby", IDS.problem);
}

function templateCopy(id: string): HTMLElement {
  const template = byId<HTMLTemplateElement>(id)!;
  return template.content.firstElementChild!.cloneNode(true) as HTMLElement;
}

function showFieldErrors(found: FieldErrors) {
  for (const field of FIELDS) showFieldError(field, found[field]);
  showProblem("fixErrors");
  const first = FIELDS.find((field) => found[field]);
  if (first) elements[first]?.focus();
}

function setPaying(on: boolean) {
  paying = on;
  // Until Stripe.js has loaded, Pay stays disabled: without it nothing could reach the provider.
  pay.disabled = !stripe || on;
  pay.querySelector<HTMLElement>("[data-spinner]")!.hidden = !on;
  if (on) pay.setAttribute("aria-describedby", IDS.paying);
  else pay.removeAttribute("aria-describedby");
  payingStatus.textContent = on ? text.paying : "";
}

function createElements(ready: StripeJs) {
  const group = ready.elements({ locale: config.locale });
  for (const field of FIELDS) {
    const placeholder = field === "number" ? "1234 1234 1234 1234" : field === "expiry" ? text.expiryPlaceholder : "";
    const element = group.create(ELEMENT_TYPE[field], { placeholder });
    element.on("change", (change) => {
      states[field] = change;
      if (field === "number")
        byId(`${IDS.field("number")}-hint`)!.textContent = numberHint(acceptedBrand(change), text);
      if (shownErrors[field]) showFieldError(field, undefined);
    });
    elements[field] = element;
  }
}

/**
 * The fields exist exactly while a new card is chosen, as the section shows them. Mounted or
 * unmounted only on a change, as Stripe.js expects (moving between two saved cards does neither).
 */
function showChoice() {
  const newCard = choice() === NEW_CARD;
  newCardSection.hidden = !newCard;
  if (!stripe || newCard === mounted) return;
  mounted = newCard;
  for (const field of FIELDS) {
    if (newCard) elements[field]!.mount(byId(IDS.field(field))!);
    else elements[field]!.unmount();
  }
}

async function submit(event: SubmitEvent) {
  event.preventDefault();
  if (paying || !stripe) return;
  showProblem(null);
  const saved = config.savedCards.find((card) => card.id === choice());
  if (!saved) {
    const found = fieldErrors(states, text);
    if (FIELDS.some((field) => found[field])) return showFieldErrors(found);
  }
  FIELDS.forEach((field) => showFieldError(field, undefined));
  setPaying(true);
  const { clientSecret } = config.confirmation;
  const result = await stripe.confirmCardPayment(
    clientSecret,
    saved
      ? { payment_method: saved.paymentMethodId, return_url: config.completeUrl }
      : {
          payment_method: { card: elements.number! },
          return_url: config.completeUrl,
          ...(save.checked ? { setup_future_usage: "off_session" } : {}),
        },
    // 3DS: the buyer goes to the bank's page and comes back to completeUrl.
    { handleActions: false },
  );
  const outcome = confirmOutcome(result, Boolean(saved), text);
  switch (outcome.kind) {
    case "leave":
      // The card details leave the page's memory before it moves on.
      FIELDS.forEach((field) => elements[field]?.clear());
      if (outcome.handleNextAction) await stripe.handleNextAction({ clientSecret });
      window.location.assign(
        outcome.redirect ?? `${config.completeUrl}&payment_intent=${encodeURIComponent(outcome.paymentIntentId)}`,
      );
      return;
    case "fields":
      setPaying(false);
      return showFieldErrors(outcome.errors);
    case "problem":
      setPaying(false);
      return showProblem(outcome.problem);
  }
}

for (const radio of radios) radio.addEventListener("change", showChoice);
// The browser may have restored another choice than the one the server checked.
showChoice();
form.addEventListener("submit", (event) => void submit(event));

loadStripeJs(config.confirmation.stripeJsUrl).then(
  (Stripe) => {
    stripe = Stripe(config.confirmation.publishableKey, { locale: config.locale });
    createElements(stripe);
    showChoice();
    setPaying(false);
    markIslandReady(NAME);
  },
  () => {
    showProblem("error");
    markIslandReady(NAME);
  },
);
