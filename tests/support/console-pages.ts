import { renderToStaticMarkup } from "react-dom/server";
import type { ConsolePage } from "@/lib/console/web/console-page";
import { openConsoleSession } from "@/lib/console/web/open-console-session";
import { getDb } from "@/lib/db/client";
import type { Locale } from "@/lib/i18n/routing";
import { consoleSessionOf } from "./console";

/**
 * A signed-in console page rendered in process, as both doors render it (the console lane and
 * the App Router's page.tsx call the same `render`): its HTML, for tests that read what a member sees.
 */
export async function renderConsolePage(
  page: ConsolePage,
  options: {
    userId: string;
    locale: Locale;
    query?: Record<string, string | string[]>;
    params?: Record<string, string>;
    session?: { cookie: string };
  },
): Promise<string> {
  const db = await getDb();
  // A session of its own, or the one a form was posted with (its flash is shown once, on its next page).
  const session = options.session ?? (await consoleSessionOf(options.userId));
  const opening = await openConsoleSession(db, {
    locale: options.locale,
    cookieHeader: session.cookie,
    capability: page.capability,
    twoStepSetup: page.twoStepSetup,
  });
  if (opening.kind !== "open") throw new Error(`the page redirects to ${opening.location}`);
  const element = await page.render(opening.page, {
    params: { locale: options.locale, ...options.params },
    query: options.query ?? {},
  });
  if (!element) throw new Error("the page answers not found");
  return renderToStaticMarkup(element);
}

/** The text a reader gets from a piece of HTML: tags dropped, entities read, spaces collapsed. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;|\u00a0|\u202f/g, " ")
    .replace(/\s+/g, " ");
}
