import { paymentLinksPage } from "../_pages/payment-links-page";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { serveConsolePage, type ConsolePageProps } from "../_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console/web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const generateMetadata = titleFromMessages(paymentLinksPage.title.messages);

/** GET /{locale}/console/payment-links: every member sees the links; owners, developers and support create and deactivate them. */
export default async function PaymentLinksPage(props: ConsolePageProps) {
  return serveConsolePage(paymentLinksPage, props);
}
