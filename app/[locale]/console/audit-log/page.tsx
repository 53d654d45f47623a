import { auditLogPage } from "../_pages/audit-log-page";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { serveConsolePage, type ConsolePageProps } from "../_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console/web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const generateMetadata = titleFromMessages(auditLogPage.title.messages);

/** GET /{locale}/console/audit-log (owners): newest first, filtered by user and action (kept in the URL). */
export default async function AuditLogPage(props: ConsolePageProps) {
  return serveConsolePage(auditLogPage, props);
}
