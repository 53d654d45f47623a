import { describe, expect, it } from "vitest";
import { pageSearchParams } from "@/lib/hosted/page-search-params";

/**
 * The query a lane's page reads (lib/hosted/page-search-params.ts, the one parser of the hosted
 * and console lanes), as the App Router hands a page its searchParams.
 */
describe("a page's query", () => {
  it("gives a name once as a string and a repeated name as the list of its values, in order", () => {
    expect(pageSearchParams("status=SUCCEEDED&status=PRE_AUTHORIZED&q=%2B213555&status=FAILED")).toEqual({
      status: ["SUCCEEDED", "PRE_AUTHORIZED", "FAILED"],
      q: "+213555",
    });
    expect(pageSearchParams("token=abc&returnUrl=https%3A%2F%2Fshop.example%2F")).toEqual({
      token: "abc",
      returnUrl: "https://shop.example/",
    });
  });

  it("reads a form's encoding (+ a space), an empty value, and no query at all", () => {
    expect(pageSearchParams("q=Amina+B&amountFrom=")).toEqual({ q: "Amina B", amountFrom: "" });
    expect(pageSearchParams("")).toEqual({});
  });

  it("keeps a name the object's prototype also has as a value of its own", () => {
    const query = pageSearchParams("constructor=a&toString=b&toString=c");
    expect(query.constructor).toBe("a");
    expect(query.toString).toEqual(["b", "c"]);
  });
});
