import type { ReactNode } from "react";
import { CheckCircleIcon, ClockIcon, InfoIcon, XCircleIcon } from "./icons";

export type StatusTone = "success" | "error" | "warning" | "info";

const tones: Record<StatusTone, { box: string; icon: string; Icon: typeof InfoIcon }> = {
  success: { box: "bg-emerald-50 text-emerald-900 ring-emerald-200", icon: "text-emerald-700", Icon: CheckCircleIcon },
  error: { box: "bg-rose-50 text-rose-900 ring-rose-200", icon: "text-rose-700", Icon: XCircleIcon },
  warning: { box: "bg-amber-50 text-amber-950 ring-amber-200", icon: "text-amber-700", Icon: ClockIcon },
  info: { box: "bg-sky-50 text-sky-950 ring-sky-200", icon: "text-sky-700", Icon: InfoIcon },
};

/**
 * A short message about the payment. `role` decides whether assistive technology reads it
 * out when it appears: "alert" for errors the buyer must act on, "status" for news.
 */
export function StatusBanner({
  tone,
  title,
  children,
  role,
  id,
}: {
  tone: StatusTone;
  title?: ReactNode;
  children?: ReactNode;
  role?: "alert" | "status";
  /** For an island that updates the banner in place. */
  id?: string;
}) {
  const { box, icon, Icon } = tones[tone];
  return (
    <div role={role} id={id} className={`flex items-start gap-3 rounded-xl px-4 py-3 text-sm ring-1 ${box}`}>
      <Icon className={`mt-0.5 size-5 shrink-0 ${icon}`} />
      <div className="flex flex-col gap-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div>{children}</div> : null}
      </div>
    </div>
  );
}
