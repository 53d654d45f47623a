import type { CurrencyFigures } from "@/lib/console/home/get-home-figures";
import { formatMinorAmount } from "@/lib/i18n/format-amount";
import type { Locale } from "@/lib/i18n/routing";
import type { Translate } from "@/lib/i18n/translator";

const WIDTH = 300;
const HEIGHT = 100;

/**
 * The last 30 days of one currency, drawn on the server: one bar a day of the money that
 * succeeded, no client code. The picture is hidden from screen readers, which read the same
 * figures from the table under it (visually hidden: the bars say it to the eye).
 */
export function HomeChart({ figures, locale, t }: { figures: CurrencyFigures; locale: Locale; t: Translate }) {
  const { currency, days } = figures;
  const highest = Math.max(0, ...days.map((day) => day.succeededMinor));
  const slot = WIDTH / days.length;
  const dayName = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" });
  const dayOf = (iso: string) => dayName.format(new Date(`${iso}T00:00:00Z`));
  const captionId = `chart-${currency}-caption`;
  return (
    <figure className="flex flex-col gap-2" aria-labelledby={captionId}>
      <figcaption id={captionId} className="font-semibold text-slate-900">
        {t("home.chartTitle", { currency })}
      </figcaption>
      <p className="text-sm text-slate-700" aria-hidden="true">
        {t("home.chartHighest", { amount: formatMinorAmount({ minor: highest, currency, locale }) })}
      </p>
      <div dir="ltr" className="flex flex-col gap-1">
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          className="h-32 w-full rounded-lg bg-slate-50"
          aria-hidden="true"
          focusable="false"
        >
          <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="stroke-slate-300" strokeWidth="1" />
          {days.map((day, index) => {
            const height =
              highest === 0
                ? 0
                : Math.max(day.succeededMinor > 0 ? 1.5 : 0, (day.succeededMinor / highest) * (HEIGHT - 4));
            return (
              <rect
                key={day.day}
                x={index * slot + 1}
                y={HEIGHT - height}
                width={slot - 2}
                height={height}
                className="fill-teal-700"
              />
            );
          })}
        </svg>
        <div className="flex justify-between text-xs text-slate-700" aria-hidden="true">
          <span>{dayOf(days[0]!.day)}</span>
          <span>{dayOf(days.at(-1)!.day)}</span>
        </div>
      </div>
      {/* The wrapper hides it: a table box ignores overflow, so sr-only on the table itself would widen the page. */}
      <div className="sr-only">
        <table>
          <caption>{t("home.chartTableCaption", { currency })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("home.chartDay")}</th>
              <th scope="col">{t("home.succeeded")}</th>
              <th scope="col">{t("home.paymentsCount")}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day}>
                <th scope="row">{dayOf(day.day)}</th>
                <td>{formatMinorAmount({ minor: day.succeededMinor, currency, locale })}</td>
                <td>{day.succeededCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
