import { eventPage } from "../../../_pages/event-page";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { serveConsolePage, type ConsolePageProps } from "../../../_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console/web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const generateMetadata = titleFromMessages(eventPage.title.messages);

/** GET /{locale}/console/developers/events/{id}: one event, its attempts and "Redeliver"; another merchant's event is 404. */
export default async function EventPage(props: { params: Promise<{ locale: string; eventId: string }>; searchParams: ConsolePageProps["searchParams"] }) {
  return serveConsolePage(eventPage, props);
}
