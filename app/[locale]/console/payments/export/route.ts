import { recordAuditEntry } from "@/lib/audit-log/record-audit-entry";
import {
  authenticateConsole,
  CONSOLE_SESSION_COOKIE,
  principalMay,
  readCookie,
} from "@/lib/console/access/console-principal";
import { consolePath } from "@/lib/console/access/console-paths";
import { exportPaymentsCsv, exportSeparatorOf } from "@/lib/console/payments/export-payments-csv";
import { parsePaymentListQuery } from "@/lib/console/payments/payment-list-filters";
import { consoleRefusedResponse, consoleSeeOther } from "@/lib/console/web/console-responses";
import { actorOf } from "@/lib/console/web/actions/actor";
import { getDb } from "@/lib/db/client";
import { clientOrigin } from "@/lib/http/client-address";
import { isLocale } from "@/lib/i18n/locales";

/**
 * GET /{locale}/console/payments/export?{the list's filters}[&separator=semicolon]: "Export CSV"
 * (contract 13), streamed from the database cursor for the session's merchant only, one audit
 * entry per export. `separator=semicolon` writes semicolons and decimal commas (Excel in French or Arabic).
 */
export async function GET(request: Request, context: { params: Promise<{ locale: string }> }): Promise<Response> {
  const { locale } = await context.params;
  if (!isLocale(locale)) return consoleRefusedResponse("bad_request", undefined);
  const db = await getDb();
  const principal = await authenticateConsole(db, {
    sessionToken: readCookie(request.headers.get("cookie"), CONSOLE_SESSION_COOKIE),
  });
  if (!principal) return consoleSeeOther(consolePath.signIn(locale));
  if (principal.mustSetUpTwoStep) return consoleSeeOther(consolePath.account(locale));
  if (!principalMay(principal, "payments.read") || !principal.membership)
    return consoleRefusedResponse("forbidden", locale, "payments.read");
  const url = new URL(request.url);
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) query[name] = url.searchParams.getAll(name);
  const parsed = parsePaymentListQuery(query, principal.membership);
  const separator = exportSeparatorOf(url.searchParams.get("separator"));
  if (!parsed.ok || !separator) return consoleRefusedResponse("bad_request", locale);
  const serviceId = principal.membership.serviceId;
  await recordAuditEntry(db, {
    actor: actorOf(principal, clientOrigin(request.headers).address),
    serviceId,
    action: "payments_exported",
    target: url.search.slice(1, 500) || null,
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(exportPaymentsCsv(db, { serviceId, filters: parsed.query.filters, separator }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="payments-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
