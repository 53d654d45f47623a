import type { ReactNode } from "react";
import { Field } from "@/components/field";
import { CONSOLE_FORM_TOKEN_FIELD } from "@/lib/console/web/console-form-route";
import { consolePath } from "@/lib/console/access/console-paths";
import type { Locale } from "@/lib/i18n/routing";

/** A plain HTML form posting to one console action, carrying the session's forgery token: works without JavaScript. */
export function ConsoleForm({
  locale,
  action,
  formToken,
  children,
  className = "flex flex-col gap-4",
  label,
}: {
  locale: Locale;
  action: string;
  formToken?: string;
  children: ReactNode;
  className?: string;
  label?: string;
}) {
  return (
    <form method="post" action={consolePath.action(locale, action)} className={className} aria-label={label}>
      {formToken ? <input type="hidden" name={CONSOLE_FORM_TOKEN_FIELD} value={formToken} /> : null}
      {children}
    </form>
  );
}

/** A read-only field whose value is shown once (a new secret, an invitation link): select and copy. */
export function ReadOnlyValue({ id, label, value, hint }: { id: string; label: string; value: string; hint?: string }) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      readOnly
      value={value}
      dir="ltr"
      className="bg-slate-50 font-mono text-sm"
    />
  );
}

/** A table's header row, the columns named for screen readers. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr className="border-b border-slate-200 text-slate-700">
        {columns.map((column) => (
          <th key={column} scope="col" className="py-2 text-start">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A notice after a form (saved, changed) or a form-level error, announced when the page loads. */
export function ConsoleNotice({ tone, children }: { tone: "success" | "error"; children: ReactNode }) {
  return (
    <p
      role={tone === "error" ? "alert" : "status"}
      className={
        "rounded-lg px-3 py-2 text-sm font-medium " +
        (tone === "error"
          ? "bg-rose-50 text-rose-800 ring-1 ring-rose-200"
          : "bg-emerald-50 text-emerald-900 ring-1 ring-emerald-200")
      }
    >
      {children}
    </p>
  );
}

export function Section({ title, id, children }: { title: string; id?: string; children: ReactNode }) {
  const headingId = `${id ?? title.replace(/\W+/g, "-").toLowerCase()}-heading`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id={headingId} className="text-lg font-bold text-slate-900 wrap-anywhere">
        {title}
      </h2>
      {children}
    </section>
  );
}

export const selectClasses =
  "min-h-12 w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 " +
  "focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-teal-600";

/**
 * A table's region: on a phone each row is a card (`card-table`, app/globals.css: give each cell
 * its column's name as `data-label`); wider, a wide table scrolls sideways, and the region is
 * focusable so a keyboard can scroll it too.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // Cells get space on their inline end, so two columns never run together (in either direction).
    <div className="card-table overflow-x-auto [&_td]:pe-3 [&_th]:pe-3" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

/** A labelled select: filters, roles. */
export function SelectField({
  id,
  name,
  label,
  options,
  defaultValue,
  compact = false,
}: {
  id: string;
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
  defaultValue?: string;
  compact?: boolean;
}) {
  return (
    <div className={compact ? "flex flex-col gap-1" : "flex flex-col gap-2"}>
      <label
        htmlFor={id}
        className={compact ? "text-xs font-semibold text-slate-700" : "text-sm font-semibold text-slate-800"}
      >
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className={selectClasses + (compact ? " min-h-11" : "")}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
