import { describe, expect, it } from "vitest";
import { requestIdFor } from "@/lib/http/request-id";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const withId = (id?: string) =>
  new Request("http://gateway.test/", { headers: id === undefined ? {} : { "x-request-id": id } });

describe("requestIdFor", () => {
  it("echoes a sane caller id of up to 128 characters", () => {
    for (const id of ["abc", "0f8e-12", "trace.id:span_1-A", "x".repeat(128), "01J9Z8Y7X6W5V4T3S2R1Q0P9N8"]) {
      expect(requestIdFor(withId(id))).toBe(id);
    }
  });

  it("replaces a missing, empty, too long or odd id with a fresh UUID", () => {
    for (const id of [undefined, "", "x".repeat(129), "has space", "a/b", "<tag>", "a;b", 'quote"', "%41"]) {
      expect(requestIdFor(withId(id)), String(id)).toMatch(UUID_V4);
    }
  });

  it("generates a different id for every request", () => {
    const ids = new Set(Array.from({ length: 100 }, () => requestIdFor(withId())));
    expect(ids.size).toBe(100);
  });
});
