import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from "react";

export type ButtonVariant = "primary" | "secondary" | "quiet";

const base =
  // Long labels (French, Arabic, a long merchant name) wrap inside the button, centred, with
  // room above and below; a word longer than the button breaks rather than overflowing.
  "inline-flex min-h-12 w-full max-w-full items-center justify-center gap-2 rounded-xl px-5 py-3 text-center " +
  "text-base leading-snug font-semibold wrap-anywhere " +
  "transition-colors focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-teal-600 " +
  "disabled:cursor-not-allowed";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-teal-700 text-white shadow-sm hover:bg-teal-800 disabled:bg-teal-700/55",
  secondary:
    "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 " +
    "disabled:border-slate-200 disabled:text-slate-500",
  quiet: "text-teal-800 underline-offset-4 hover:underline disabled:text-slate-500",
};

/** The one look of a hosted page action; anchors that act as buttons share it. */
export function buttonClasses(variant: ButtonVariant = "primary"): string {
  return `${base} ${variants[variant]}`;
}

export function Button({
  variant = "primary",
  className = "",
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={`${buttonClasses(variant)} ${className}`} {...props} />;
}

export function ButtonLink({
  variant = "primary",
  className = "",
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & { variant?: ButtonVariant }) {
  return <a className={`${buttonClasses(variant)} ${className}`} {...props} />;
}
