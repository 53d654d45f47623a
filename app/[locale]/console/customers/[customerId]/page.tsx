import { customerPage } from "../../_pages/customer-page";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { serveConsolePage, type ConsolePageProps } from "../../_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console/web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const generateMetadata = titleFromMessages(customerPage.title.messages);

/** GET /{locale}/console/customers/{id}: its payments (keyset), saved cards with "Delete", "Deactivate"; another merchant's customer is 404. */
export default async function CustomerPage(props: { params: Promise<{ locale: string; customerId: string }>; searchParams: ConsolePageProps["searchParams"] }) {
  return serveConsolePage(customerPage, props);
}
