import { accountPage } from "../_pages/account-page";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { serveConsolePage, type ConsolePageProps } from "../_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console/web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const generateMetadata = titleFromMessages(accountPage.title.messages);

/** GET /{locale}/console/account: password, two-step verification (setup, recovery codes, off), sign out everywhere. */
export default async function AccountPage(props: ConsolePageProps) {
  return serveConsolePage(accountPage, props);
}
