import { developersPage } from "../_pages/developers-page";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { serveConsolePage, type ConsolePageProps } from "../_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console/web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const generateMetadata = titleFromMessages(developersPage.title.messages);

/** GET /{locale}/console/developers (owners, developers): keys, secret rolls, webhook URL, events with their filters. */
export default async function DevelopersPage(props: ConsolePageProps) {
  return serveConsolePage(developersPage, props);
}
