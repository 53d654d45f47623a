import { settingsPage } from "../_pages/settings-page";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { serveConsolePage, type ConsolePageProps } from "../_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console/web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const generateMetadata = titleFromMessages(settingsPage.title.messages);

/** GET /{locale}/console/settings (owners, developers): name, redirect URL, allowed origins. */
export default async function SettingsPage(props: ConsolePageProps) {
  return serveConsolePage(settingsPage, props);
}
