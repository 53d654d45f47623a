import type { ConsolePage } from "@/lib/console/web/console-page";
import { accountPage } from "./account-page";
import { auditLogPage } from "./audit-log-page";
import { customerPage } from "./customer-page";
import { customersPage } from "./customers-page";
import { developersPage } from "./developers-page";
import { eventPage } from "./event-page";
import { homePage } from "./home-page";
import { paymentLinksPage } from "./payment-links-page";
import { paymentPage } from "./payment-page";
import { paymentsPage } from "./payments-page";
import { settingsPage } from "./settings-page";
import { teamPage } from "./team-page";

/**
 * Every signed-in console page, which the console lane serves (lib/console/web/console-lane.ts),
 * by its directory under app/[locale]/console, whose page.tsx renders the same page under
 * Next.js. The pages before sign-in (sign-in, its code step, sign-up, an invitation) stay App
 * Router pages only. tests/unit/console-lane-pages.test.ts checks the two lists agree.
 */
export const CONSOLE_LANE_PAGES: Readonly<Record<string, ConsolePage>> = {
  "": homePage,
  payments: paymentsPage,
  "payments/[paymentId]": paymentPage,
  customers: customersPage,
  "customers/[customerId]": customerPage,
  "payment-links": paymentLinksPage,
  team: teamPage,
  account: accountPage,
  settings: settingsPage,
  developers: developersPage,
  "developers/events/[eventId]": eventPage,
  "audit-log": auditLogPage,
};
