import { teamPage } from "../_pages/team-page";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { serveConsolePage, type ConsolePageProps } from "../_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console/web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const generateMetadata = titleFromMessages(teamPage.title.messages);

/** GET /{locale}/console/team (owners): members and their roles, invitations, the two-step requirement. */
export default async function TeamPage(props: ConsolePageProps) {
  return serveConsolePage(teamPage, props);
}
