import { createElement } from "react";
import { ConsoleNotFound, ConsoleUnavailable } from "@/components/console/console-answer-pages";
import type { ConsoleAnswerPages, ConsolePage } from "@/lib/console/web/console-page";
import { translator } from "@/lib/i18n/translator";
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
 * and only it, by its path under /{locale}/console. The pages before sign-in (sign-in, its code
 * step, sign-up, an invitation, a password reset) stay App Router pages, served by Next.js.
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

/** The console's not-found and unavailable pages, which the console lane answers with. */
export const CONSOLE_ANSWER_PAGES: ConsoleAnswerPages = {
  notFound: (locale, address) => ({ title: translator(locale, "linkInvalid")("title"), element: createElement(ConsoleNotFound, { locale, address }) }),
  unavailable: (locale, address) => ({ title: translator(locale, "unavailable")("title"), element: createElement(ConsoleUnavailable, { locale, address }) }),
};
