import { describe, expect, it } from "vitest";
import { CONSOLE_LANE_PAGES } from "@/app/[locale]/console/_pages/console-lane-pages";
import { consolePageTitle } from "@/lib/console/web/console-page";
import { consoleRefusedResponse, type ConsoleRefusal } from "@/lib/console/web/console-responses";

const LOCALES = ["en", "fr", "ar"] as const;

/** Every console page, the lane's (those before sign-in among them). */
const pageDirectories = Object.keys(CONSOLE_LANE_PAGES).sort();

/** A page's <title> in each language. */
function titlesOf(directory: string): Record<(typeof LOCALES)[number], string> {
  const titleIn = (locale: (typeof LOCALES)[number]) => consolePageTitle(CONSOLE_LANE_PAGES[directory]!, locale);
  return { en: titleIn("en"), fr: titleIn("fr"), ar: titleIn("ar") };
}

// An English word left in Arabic shows as Latin letters; a French title copied from English is the same text.
describe("every console page's title is in its reader's language", () => {
  it.each(pageDirectories)("app/[locale]/console/%s", (directory) => {
    const titles = titlesOf(directory);
    for (const locale of LOCALES) expect(titles[locale], locale).not.toBe("");
    expect(titles.ar).not.toBe(titles.en);
    expect(titles.ar).not.toMatch(/[A-Za-z]/);
    // "Invitation" is the French word too.
    if (directory !== "invitations/[token]") expect(titles.fr).not.toBe(titles.en);
  });

  it.each(["bad_request", "forged", "forbidden", "not_found"] satisfies ConsoleRefusal[])(
    "the refused page (%s)",
    async (refusal) => {
      const [en, ar] = await Promise.all(
        ["en", "ar"].map(
          async (locale) => /<title>([^<]*)<\/title>/.exec(await consoleRefusedResponse(refusal, locale).text())?.[1],
        ),
      );
      expect(en).toBeTruthy();
      expect(ar).not.toBe(en);
      expect(ar).not.toMatch(/[A-Za-z]/);
    },
  );
});
