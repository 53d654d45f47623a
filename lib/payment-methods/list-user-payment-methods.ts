import type { BrowserPrincipal, UserPrincipal } from "../auth/principal";
import { listSavedCards } from "../cards/list-saved-cards";
import type { Db } from "../db/client";
import { currencyOfCountry } from "../geo/countries";
import { ApiError } from "../errors/api-error";
import { zodDetails } from "../errors/zod-details";
import { fromMinorUnits } from "../money/amount";
import { isSupportedCurrency } from "../money/currencies";
import { getCurrentPaymentOrThrow } from "../payments/core/open-payment";
import { pageLocaleOf } from "../i18n/locales";
import { walletCallOrApiError } from "./registry/method-entry-points";
import { connectedWallet, walletAccountOf } from "../wallet-connection/wallet-connection";
import { catalogRows } from "./list-available-payment-methods";
import { paymentMethodOf } from "./registry/payment-method-registry";
import { methodFunds } from "./registry/method-funds";
import { userContextInput } from "./payment-methods.schema";
import { toPaymentMethodItem, toSavedCardItem, type UserPaymentMethodItem } from "./payment-method-views";

interface UserContext {
  customerId: string;
  country: string;
  /** The wallet balance's currency; null when neither the caller nor the country names one. */
  currency: string | null;
}

/**
 * Interface "Payment methods" 2: the methods of the buyer's country with the wallet's
 * available balance, then one item per saved card. Under merchant_auth the intent gives the
 * customer, country, currency and amount (whatever the query says); under user_auth the
 * caller names country (x-country-code) and amount.
 */
export async function listUserPaymentMethods(
  db: Db,
  options: {
    principal: BrowserPrincipal | UserPrincipal;
    query: { amount?: string; actionCurrencyCode?: string };
    headers: { "x-locale"?: string; "x-country-code"?: string };
  },
): Promise<UserPaymentMethodItem[]> {
  const { principal } = options;
  const context = principal.mode === "merchant" ? await intentContext(db, principal) : userContext(principal, options);
  const language = pageLocaleOf(options.headers["x-locale"]) ?? "en";
  const rows = await catalogRows(db, { serviceId: principal.service.id, country: context.country });

  const items: UserPaymentMethodItem[] = [];
  for (const row of rows) {
    const item = toPaymentMethodItem(row, language);
    const listing = paymentMethodOf(row.code)?.userListing ?? "none";
    if (listing === "walletBalance") {
      items.push({ ...item, paymentOptionType: "wallet", ...(await walletBalance(db, principal, context)) });
    } else {
      items.push({ ...item, paymentOptionType: "paymentMethod" });
    }
  }
  if (rows.some((row) => paymentMethodOf(row.code)?.userListing === "savedCards")) {
    const cards = await listSavedCards(db, {
      serviceId: principal.service.id,
      customerId: context.customerId,
      paymentMethodCode: "CARD_PROVIDER",
    });
    items.push(...cards.map(toSavedCardItem));
  }
  return items;
}

async function intentContext(db: Db, principal: BrowserPrincipal): Promise<UserContext> {
  const payment = await getCurrentPaymentOrThrow(db, {
    principal,
    paymentId: principal.paymentId,
    methods: methodFunds,
  });
  return { customerId: payment.customerId, country: payment.country, currency: payment.currency };
}

function userContext(
  principal: UserPrincipal,
  options: { query: { amount?: string; actionCurrencyCode?: string }; headers: { "x-country-code"?: string } },
): UserContext {
  const parsed = userContextInput.safeParse({
    amount: options.query.amount,
    country: options.headers["x-country-code"],
    currency: options.query.actionCurrencyCode,
  });
  if (!parsed.success) {
    const where: Record<string, string> = {
      amount: "query.amount",
      country: "headers.x-country-code",
      currency: "query.actionCurrencyCode",
    };
    const details = zodDetails(parsed.error).map((detail) => ({ ...detail, path: where[detail.path] ?? detail.path }));
    throw new ApiError("validation_error", "The request is invalid.", details);
  }
  const { country, currency } = parsed.data;
  return { customerId: principal.customerId, country, currency: currency ?? currencyOfCountry(country) };
}

async function walletBalance(db: Db, principal: BrowserPrincipal | UserPrincipal, context: UserContext) {
  if (!context.currency || !isSupportedCurrency(context.currency)) return {};
  const wallet = await connectedWallet();
  const { availableMinor } = await walletCallOrApiError(() =>
    wallet.balance({
      ...walletAccountOf({ serviceId: principal.service.id, customerId: context.customerId }),
      currency: context.currency!,
    }),
  );
  return { balance: fromMinorUnits(availableMinor, context.currency), currency: context.currency };
}
