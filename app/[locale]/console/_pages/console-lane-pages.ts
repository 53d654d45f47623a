import { createElement } from "react";
import { ConsoleNotFound, ConsoleUnavailable } from "@/components/console/console-answer-pages";
import type { ConsoleAnswerPages, ConsolePage, SignedOutConsolePage } from "@/lib/console/web/console-page";
import { translator } from "@/lib/i18n/translator";
import { accountPage } from "./account-page";
import { auditLogPage } from "./audit-log-page";
import { codeStepPage } from "./code-step-page";
import { customerPage } from "./customer-page";
import { customersPage } from "./customers-page";
import { developersPage } from "./developers-page";
import { eventPage } from "./event-page";
import { forgotPasswordPage } from "./forgot-password-page";
import { homePage } from "./home-page";
import { invitationPage } from "./invitation-page";
import { paymentLinksPage } from "./payment-links-page";
import { paymentPage } from "./payment-page";
import { paymentsPage } from "./payments-page";
import { resetPasswordPage } from "./reset-password-page";
import { settingsPage } from "./settings-page";
import { signInPage } from "./sign-in-page";
import { signUpPage } from "./sign-up-page";
import { teamPage } from "./team-page";

/**
 * Every console page, which the console lane serves (lib/console/web/console-lane.ts), and only
 * it, by its path under /{locale}/console: the signed-in pages, and those before sign-in (sign-in,
 * its code step, sign-up, a forgotten password, a password reset, an invitation), which ship no
 * JavaScript either. Next.js keeps only the console's route handlers (the form actions, the
 * export, the refused page).
 */
export const CONSOLE_LANE_PAGES: Readonly<Record<string, ConsolePage | SignedOutConsolePage>> = {
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
  "sign-in": signInPage,
  "sign-in/code": codeStepPage,
  "sign-up": signUpPage,
  "forgot-password": forgotPasswordPage,
  "reset-password/[token]": resetPasswordPage,
  "invitations/[token]": invitationPage,
};

/** The console's not-found and unavailable pages, which the console lane answers with. */
export const CONSOLE_ANSWER_PAGES: ConsoleAnswerPages = {
  notFound: (locale, address) => ({
    title: translator(locale, "linkInvalid")("title"),
    element: createElement(ConsoleNotFound, { locale, address }),
  }),
  unavailable: (locale, address) => ({
    title: translator(locale, "unavailable")("title"),
    element: createElement(ConsoleUnavailable, { locale, address }),
  }),
};
