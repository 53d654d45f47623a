import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CardShell } from "@/components/card-shell";
import { ConsoleNotFound, ConsoleUnavailable } from "@/components/console/console-answer-pages";
import { LinkNotValid } from "@/components/link-not-valid";
import { routing } from "@/lib/i18n/routing";

/**
 * The console lane's not-found and unavailable pages (components/console/console-answer-pages.tsx)
 * wear the hosted pages' frame, components/card-shell.tsx: an unknown console address reads as any
 * unknown link of the gateway, in the reader's language, its language links keeping the address.
 */
describe("the console's answer pages", () => {
  it("not found is the app's neutral page, byte for byte, in each language", () => {
    for (const locale of routing.locales) {
      const address = { path: "/console/payments/no-such-payment", search: "status=SUCCEEDED&q=%2B213" };
      const notFound = renderToStaticMarkup(createElement(ConsoleNotFound, { locale, address }));
      const neutral = renderToStaticMarkup(
        createElement(LinkNotValid, { locale, pageUrl: `/${locale}${address.path}?${address.search}` }),
      );
      expect(notFound, locale).toBe(neutral);
      expect(notFound).toContain(`href="/${locale}/console/payments/no-such-payment?status=SUCCEEDED&amp;q=%2B213"`);
    }
  });

  it("unavailable is in the same frame, with a retry link to the address", () => {
    const address = { path: "/console/payments", search: "" };
    const page = renderToStaticMarkup(createElement(ConsoleUnavailable, { locale: "fr", address }));
    const frame = renderToStaticMarkup(
      createElement(CardShell, { locale: "fr", path: address.path, search: address.search, children: "(the page)" }),
    );
    const [before, after] = frame.split("(the page)") as [string, string];
    expect(page.startsWith(before)).toBe(true);
    expect(page.endsWith(after)).toBe(true);
    expect(page).toContain('href="/fr/console/payments"');
    expect(page).toContain('hrefLang="ar"');
  });
});
