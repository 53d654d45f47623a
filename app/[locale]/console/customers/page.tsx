import { customersPage } from "@/components/console/pages/customers-page";
import { serveConsolePage, type ConsolePageProps } from "../_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console-web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const metadata = { title: customersPage.title };

/** GET /{locale}/console/customers?q=: search by phone, name or email (the beginning of either). */
export default async function CustomersPage(props: ConsolePageProps) {
  return serveConsolePage(customersPage, props);
}
