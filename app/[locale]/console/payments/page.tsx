import { paymentsPage } from "../_pages/payments-page";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { serveConsolePage, type ConsolePageProps } from "../_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console/web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const generateMetadata = titleFromMessages(paymentsPage.title.messages);

/** GET /{locale}/console/payments: newest first, 25 a page by keyset, filters and search in the URL. */
export default async function PaymentsPage(props: ConsolePageProps) {
  return serveConsolePage(paymentsPage, props);
}
