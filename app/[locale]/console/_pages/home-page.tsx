import type { ReactNode } from "react";
import { HomeChart } from "@/components/console/home-chart";
import { consoleDateTime } from "@/components/console/payment-labels";
import { Section } from "@/components/console/console-form";
import { ConsoleShell } from "@/components/console/console-shell";
import { consolePath } from "@/lib/console/access/console-paths";
import {
  getHomeFigures,
  SUCCEEDED_STATES,
  type CurrencyFigures,
  type HomeFigures,
  type PeriodFigures,
} from "@/lib/console/home/get-home-figures";
import type { ConsolePage } from "@/lib/console/web/console-page";
import type { OpenConsolePage } from "@/lib/console/web/open-console-session";
import { formatMinorAmount } from "@/lib/i18n/format-amount";
import type { Locale } from "@/lib/i18n/routing";
import { translator, type Translate } from "@/lib/i18n/translator";

const link = "font-semibold text-teal-800 underline underline-offset-4 wrap-anywhere";

/**
 * GET /{locale}/console: the page an owner opens each morning: what needs someone, the money in, the last 30
 * days, each method's success.
 */
async function renderHomePage({ db, locale, principal, formToken }: OpenConsolePage) {
  const t = translator(locale, "console");
  const membership = principal.membership;
  const figures = membership
    ? await getHomeFigures(db, { serviceId: membership.serviceId, timeZone: membership.timeZone })
    : null;
  return (
    <ConsoleShell
      locale={locale}
      path="/console"
      principal={principal}
      formToken={formToken}
      title={t("home.title", { name: principal.user.name })}
    >
      {membership && figures ? (
        <>
          <p className="text-slate-800">
            {t("home.role", { merchant: membership.merchantName, role: t(`roles.${membership.role}`) })}
          </p>
          <HomeSections figures={figures} locale={locale} />
        </>
      ) : (
        <div className="flex flex-col gap-2">
          <h2 className="text-lg font-semibold">{t("home.noMerchantTitle")}</h2>
          <p className="text-slate-800">{t("home.noMerchantBody")}</p>
        </div>
      )}
    </ConsoleShell>
  );
}

/** What the home shows of a merchant's figures (tests render it with figures read at a fixed time). */
export function HomeSections({ figures, locale }: { figures: HomeFigures; locale: Locale }) {
  const t = translator(locale, "console");
  return (
    <>
      <Attention figures={figures} locale={locale} t={t} />
      <Takings figures={figures} locale={locale} t={t} />
      <Methods figures={figures} locale={locale} t={t} />
    </>
  );
}

interface Parts {
  figures: HomeFigures;
  locale: Locale;
  t: Translate;
}

function Attention({ figures, locale, t }: Parts) {
  const { reservationsExpiring, awaitingBuyer, webhooksFailing, providersSilent } = figures.attention;
  const at = consoleDateTime(locale, figures.periods.timeZone);
  const amount = (minor: number, currency: string) => formatMinorAmount({ minor, currency, locale });
  const items: ReactNode[] = [];
  for (const silent of providersSilent) {
    items.push(
      <li key={`provider-${silent.provider}`}>
        <p>
          {t("home.providerSilent", {
            provider: t(`home.providers.${silent.provider}`),
            count: silent.count,
            since: at.format(silent.since),
          })}
        </p>
      </li>,
    );
  }
  if (reservationsExpiring.count > 0) {
    items.push(
      <li key="reservations" className="flex flex-col gap-1">
        <p>{t("home.reservationsExpiring", { count: reservationsExpiring.count })}</p>
        <ul className="flex flex-col gap-1 ps-4">
          {reservationsExpiring.oldest.map((payment) => (
            <li key={payment.paymentId}>
              <a className={link} href={consolePath.payment(locale, payment.paymentId)}>
                {t("home.reservationItem", {
                  amount: amount(payment.amountMinor, payment.currency),
                  at: at.format(payment.releaseAt),
                })}
              </a>
            </li>
          ))}
        </ul>
      </li>,
    );
  }
  if (awaitingBuyer.count > 0) {
    items.push(
      <li key="awaiting" className="flex flex-col gap-1">
        <p>{t("home.awaitingBuyer", { count: awaitingBuyer.count })}</p>
        <ul className="flex flex-col gap-1 ps-4">
          {awaitingBuyer.oldest.map((payment) => (
            <li key={payment.paymentId}>
              <a className={link} href={consolePath.payment(locale, payment.paymentId)}>
                {t("home.awaitingItem", {
                  amount: amount(payment.amountMinor, payment.currency),
                  at: at.format(payment.createdAt),
                })}
              </a>
            </li>
          ))}
        </ul>
      </li>,
    );
  }
  if (webhooksFailing.abandoned + webhooksFailing.retrying > 0) {
    items.push(
      <li key="webhooks" className="flex flex-col gap-1">
        <p>{t("home.webhooksFailing", { abandoned: webhooksFailing.abandoned, retrying: webhooksFailing.retrying })}</p>
        <a className={link} href={`${consolePath.developers(locale)}?deliveryStatus=failed#events`}>
          {t("home.seeEvents")}
        </a>
      </li>,
    );
  }
  return (
    <Section title={t("home.attentionTitle")} id="attention">
      {items.length === 0 ? (
        <p className="text-slate-800">{t("home.nothingNeeded")}</p>
      ) : (
        <ul className="flex flex-col gap-3 text-slate-900">{items}</ul>
      )}
    </Section>
  );
}

function Takings({ figures, locale, t }: Parts) {
  const zone = figures.periods.timeZone;
  return (
    <Section title={t("home.takingsTitle")} id="takings">
      <p className="text-sm text-slate-700">{t("home.periodsNote", { zone })}</p>
      {figures.currencies.length === 0 ? <p className="text-slate-800">{t("home.noPayments")}</p> : null}
      {figures.currencies.map((currency) => (
        <CurrencyTakings key={currency.currency} currency={currency} figures={figures} locale={locale} t={t} />
      ))}
    </Section>
  );
}

function CurrencyTakings({ currency, figures, locale, t }: Parts & { currency: CurrencyFigures }) {
  const periods = [
    { key: "today", from: figures.periods.today },
    { key: "week", from: figures.periods.week },
    { key: "month", from: figures.periods.month },
  ] as const;
  const amount = (minor: number) => formatMinorAmount({ minor, currency: currency.currency, locale });
  const listOf = (from: Date) => {
    const query = new URLSearchParams({
      status: SUCCEEDED_STATES.join(","),
      currency: currency.currency,
      createdFrom: from.toISOString(),
    });
    return `${consolePath.payments(locale)}?${query.toString()}`;
  };
  return (
    <div className="flex flex-col gap-3 border-t border-slate-200 pt-3">
      <h3 className="font-semibold text-slate-900">{currency.currency}</h3>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        {periods.map(({ key, from }) => {
          const period: PeriodFigures = currency[key];
          return (
            <div key={key} className="flex flex-col gap-1 rounded-xl bg-slate-50 p-3">
              <dt className="text-sm font-semibold text-slate-700">{t(`home.periods.${key}`)}</dt>
              <dd className="text-xl font-bold text-slate-900 tabular-nums wrap-anywhere">
                {amount(period.succeededMinor)}
              </dd>
              <dd className="text-sm text-slate-800">
                <a className={link} href={listOf(from)}>
                  {t("home.succeededCount", { count: period.succeededCount })}
                </a>
              </dd>
              <dd className="text-sm text-slate-800">
                {t("home.refunded", { amount: amount(period.refundedMinor), count: period.refundedCount })}
              </dd>
            </div>
          );
        })}
      </dl>
      <HomeChart figures={currency} locale={locale} t={t} />
    </div>
  );
}

function Methods({ figures, locale, t }: Parts) {
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
  return (
    <Section title={t("home.methodsTitle")} id="methods">
      {figures.methods.length === 0 ? (
        <p className="text-slate-800">{t("home.noMethods")}</p>
      ) : (
        <dl className="flex flex-col gap-2">
          {figures.methods.map((method) => (
            <div
              key={method.method}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-slate-100 pb-2"
            >
              <dt className="font-semibold text-slate-900">{t(`home.methods.${method.method}`)}</dt>
              <dd className="text-slate-800 tabular-nums">
                {method.rate === null
                  ? "—"
                  : t("home.methodRate", {
                      rate: percent.format(method.rate),
                      succeeded: method.succeeded,
                      total: method.succeeded + method.failed,
                    })}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Section>
  );
}

export const homePage = {
  title: { messages: "console" },
  capability: null,
  render: renderHomePage,
} satisfies ConsolePage;
