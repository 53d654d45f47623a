import type { InputHTMLAttributes } from "react";

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  id: string;
  label: string;
  hint?: string;
  /** Shown under the field and announced at once; marks the input invalid. */
  error?: string | null;
  ref?: React.Ref<HTMLInputElement>;
}

/** A labelled input with its hint and error tied to it for screen readers. */
export function Field({ id, label, hint, error, className = "", ref, ...inputProps }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-semibold text-slate-800">
        {label}
      </label>
      <input
        id={id}
        ref={ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={
          "min-h-12 w-full rounded-xl border bg-white px-4 text-lg text-slate-900 shadow-inner shadow-slate-100 " +
          "placeholder:text-slate-400 " +
          "focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-teal-600 " +
          (error ? "border-rose-600 " : "border-slate-300 ") +
          className
        }
        {...inputProps}
      />
      {error ? (
        <p id={errorId} role="alert" className="text-sm font-medium text-rose-700">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
