import type { ConsolePage } from "@/lib/console-web/console-page";
import { customerPage } from "./customer-page";
import { customersPage } from "./customers-page";
import { homePage } from "./home-page";
import { paymentPage } from "./payment-page";
import { paymentsPage } from "./payments-page";

/**
 * The signed-in console pages the console lane serves (lib/console-web/console-lane.ts), by their
 * directory under app/[locale]/console, whose page.tsx renders the same page under Next.js.
 */
export const CONSOLE_LANE_PAGES: Readonly<Record<string, ConsolePage>> = {
  "": homePage,
  payments: paymentsPage,
  "payments/[paymentId]": paymentPage,
  customers: customersPage,
  "customers/[customerId]": customerPage,
};
