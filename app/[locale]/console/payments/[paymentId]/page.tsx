import { paymentPage } from "../../_pages/payment-page";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { serveConsolePage, type ConsolePageProps } from "../../_lib/open-console-page";

// Served by the console lane under `npm start` (lib/console/web/console-lane.ts); this door serves it
// under `npm run dev` and GATEWAY_CONSOLE_LANE=off, rendering the same page.
export const generateMetadata = titleFromMessages(paymentPage.title.messages);

/** GET /{locale}/console/payments/{id}: the payment, its amounts, timeline and events; capture, release and refund behind a confirmation. */
export default async function PaymentPage(props: { params: Promise<{ locale: string; paymentId: string }>; searchParams: ConsolePageProps["searchParams"] }) {
  return serveConsolePage(paymentPage, props);
}
