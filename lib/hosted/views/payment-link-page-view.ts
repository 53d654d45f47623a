import { ulid } from "ulid";
import type { Db } from "../../db/client";
import { callingCodeOf } from "../../geo/calling-codes";
import type { Locale } from "../../i18n/routing";
import { fromMinorUnits } from "../../money/amount";
import type { PaymentMethodCode } from "../../payment-methods/codes/payment-method-codes";
import { getLinkPage } from "../../payment-links/get-link-page";
import { paymentLinkClosedPath } from "../../urls/payment-link-urls";
import { hostedFormToken } from "../hosted-form-route";
import type { PageRedirectOrNotFound } from "./page-redirect-or-not-found";

/** What a refused post of the link page asks the buyer to fix (the 303 carries them in `errors`). */
export const LINK_FORM_PROBLEMS = [
  "amount:required",
  "amount:format",
  "amount:below_min",
  "amount:above_max",
  "phone:required",
  "phone:format",
  "form:busy",
  "form:too_many",
  "form:error",
] as const;
export type LinkFormProblemCode = (typeof LINK_FORM_PROBLEMS)[number];

/** Everything the link page renders, decided here; the page only lays it out. */
export type PaymentLinkPageView =
  | PageRedirectOrNotFound
  | {
      kind: "render";
      merchantName: string;
      title: string;
      description: string | null;
      currency: string;
      /** The fixed amount in standard units, or null: the buyer enters one. */
      amount: number | null;
      bounds: { min: number | null; max: number | null };
      /** The link country's calling code, typed into an empty phone field (`+213`). */
      callingCode: string;
      methods: PaymentMethodCode[];
      /** What the buyer entered before a refused post, shown again. */
      entered: { amount: string; phone: string; method: string | undefined };
      problems: LinkFormProblemCode[];
      formToken: string;
      /** This view of the form: a double submit of it makes one intent (startLinkPayment). */
      attempt: string;
    };

/**
 * GET /{locale}/l/{linkId}: the link's page; a link that takes no payment now goes to its 410
 * page. `query` is the page's search parameters (what a refused post echoed back).
 */
export async function getPaymentLinkPageView(
  db: Db,
  options: { locale: Locale; linkId: string; query: Record<string, string | undefined> },
): Promise<PaymentLinkPageView> {
  const { locale, linkId, query } = options;
  const page = await getLinkPage(db, linkId);
  if (!page) return { kind: "not_found" };
  if (page.closure) return { kind: "redirect", location: paymentLinkClosedPath({ locale, linkId }) };
  const { link } = page;
  const standard = (minor: number | null) => (minor === null ? null : fromMinorUnits(minor, link.currency));
  const callingCode = callingCodeOf(link.country) ?? "+";
  const problems = (query.errors ?? "")
    .split(",")
    .filter((code): code is LinkFormProblemCode => (LINK_FORM_PROBLEMS as readonly string[]).includes(code));
  return {
    kind: "render",
    merchantName: page.merchantName,
    title: link.title,
    description: link.description,
    currency: link.currency,
    amount: standard(link.amountMinor),
    bounds: { min: standard(link.minAmountMinor), max: standard(link.maxAmountMinor) },
    callingCode,
    methods: page.methods,
    entered: {
      amount: (query.amount ?? "").slice(0, 32),
      phone: (query.phone ?? "").slice(0, 32) || (callingCode === "+" ? "" : callingCode),
      method: query.method,
    },
    problems,
    formToken: await hostedFormToken(db, "payment_link", link.id),
    attempt: ulid(),
  };
}
