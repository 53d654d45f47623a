import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pathnameOf } from "@/lib/http/request-scope";

// The access line's path is cut out of request.url instead of parsed again: it must be what
// WHATWG URL answers as the pathname, for any URL a request can carry.
describe("pathnameOf", () => {
  it("answers URL's pathname for the shapes requests carry", () => {
    for (const url of [
      "http://gateway.test/api/v1/customers?phone=%2B213555&token=abc",
      "http://127.0.0.1:3320/api/v1/payments/intents/90c63980-274c-4f3a-8942-4a2e94c48b2f/check",
      "https://user:pw@gateway.test:8443/api/v1/x?a=/b#c?d",
      "http://gateway.test/",
      "http://gateway.test",
      "http://gateway.test/a#frag/x?y",
      "http://gateway.test/%00/x?%00=1",
    ]) {
      const href = new URL(url).href;
      expect(pathnameOf(href)).toBe(new URL(href).pathname);
    }
  });

  it("answers URL's pathname for any parsed http(s) URL", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        const href = new URL(url).href;
        expect(pathnameOf(href)).toBe(new URL(href).pathname);
      }),
      { numRuns: 2000 },
    );
  });
});
