import { homePage } from "./_pages/home-page";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { serveConsolePage, type ConsolePageProps } from "./_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console/web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const generateMetadata = titleFromMessages(homePage.title.messages);

/** GET /{locale}/console: the member's merchant and role; the navigation leads on. */
export default async function ConsoleHome(props: ConsolePageProps) {
  return serveConsolePage(homePage, props);
}
