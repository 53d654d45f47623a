import { customersPage } from "../_pages/customers-page";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { serveConsolePage, type ConsolePageProps } from "../_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console/web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const generateMetadata = titleFromMessages(customersPage.title.messages);

/** GET /{locale}/console/customers?q=: search by phone, name or email (the beginning of either). */
export default async function CustomersPage(props: ConsolePageProps) {
  return serveConsolePage(customersPage, props);
}
