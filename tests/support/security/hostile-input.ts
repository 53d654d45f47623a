import fc from "fast-check";
import type { z } from "zod";

/**
 * Text an attacker or a careless client sends into any field: SQL and NoSQL injection,
 * markup and script, template and format strings, path tricks, Unicode oddities, control
 * characters, and sizes around the limits. Named, so a failure says which one broke what.
 */
export const INJECTION_STRINGS: Record<string, string> = {
  "SQL quote": "' OR '1'='1",
  "SQL stacked query": "'; DROP TABLE customers; --",
  "SQL comment and union": "1 UNION SELECT client_secret_hash FROM api_credentials--",
  "SQL time delay": "1'; SELECT pg_sleep(5); --",
  "double-quote break": '" OR ""="',
  "backslash escape": "\\'; \\\" \\\\",
  "positional parameter": "$1 $2 :name ?",
  "NoSQL operator": '{"$gt": ""}',
  "script tag": "<script>alert(document.cookie)</script>",
  "image onerror": '"><img src=x onerror=alert(1)>',
  "javascript URL": "javascript:alert(1)",
  "template expressions": "{{7*7}} ${7*7} <%= 7*7 %> #{7*7}",
  "format string": "%s%s%s%n%x",
  "path traversal": "../../../../etc/passwd",
  "CRLF injection": "line\r\nX-Injected: 1",
  "right-to-left override": "invoice\u202Egnp.exe",
  "zero-width characters": "a\u200Bb\u200Dc\u2060d",
  "byte order mark inside": "a\uFEFFb",
  "combining marks": "Zalgo\u0301\u0302\u0303\u0304\u0305",
  "emoji ZWJ sequence": "\u{1F469}\u200D\u{1F469}\u200D\u{1F467}",
  "Arabic and Latin": "متجر Atlas ١٢٣",
  "astral plane": "\u{10FFFF}\u{1D11E}",
  "full-width digits": "１２３４５",
  "NUL byte": "a\u0000b",
  "other control characters": "a\u0001\u0007\u001B[31mb",
  "lone high surrogate": "a\uD800b",
  "lone low surrogate": "a\uDC00b",
  "prototype key": "__proto__",
  "very long (10,000)": "x".repeat(10_000),
  "over the body limit (70,000)": "y".repeat(70_000),
};

/** What is refused as invalid input, whatever field it is sent in: it cannot be stored as sent. */
export const MUST_BE_REFUSED = new Set(["NUL byte", "lone high surrogate", "lone low surrogate"]);

/** What of a value the fetch client can send as a header: no control characters, nothing above U+00FF. */
export function headerSafe(value: string): string | null {
  const cleaned = value
    .replace(/[\u0000-\u001F\u007F]/g, "")
    .replace(/[^\u0000-\u00FF]/g, "")
    .trim();
  return cleaned === "" || cleaned.length > 8_000 ? null : cleaned;
}

/** encodeURIComponent, which throws on a lone surrogate; the browser would send U+FFFD. */
export function encodeSegment(value: string): string {
  return encodeURIComponent(
    value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"),
  );
}

/** The keys of an object schema (zod 4), or none. */
export function schemaKeys(schema: z.ZodType | undefined): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** Is this field of an object schema a string (or a string enum) once optional/default/pipe are unwrapped? */
export function isTextField(schema: z.ZodType | undefined, key: string): boolean {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  let field = shape?.[key] as { _zod?: { def: Record<string, unknown> } } | undefined;
  for (let depth = 0; field?._zod && depth < 10; depth += 1) {
    const def = field._zod.def;
    switch (def.type) {
      case "string":
      case "enum":
        return true;
      case "optional":
      case "nullable":
      case "default":
      case "catch":
      case "prefault":
      case "readonly":
        field = def.innerType as typeof field;
        break;
      case "pipe":
        field = def.in as typeof field;
        break;
      default:
        return false;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------
// fast-check arbitraries

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  // Any code point, lone surrogates included.
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 3, arbitrary: fc.constantFrom(...Object.values(INJECTION_STRINGS).filter((text) => text.length < 20_000)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }).map((size) => "z".repeat(size * 100)) },
);

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1e308, -1e308, 1e-7, 0.1 + 0.2, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
);

/** A value of the wrong (or, by chance, the right) type for any field. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, leaf, { maxKeys: 5 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
);

/** JSON text nested `depth` levels deep, as arrays or objects. */
export function deeplyNested(depth: number, kind: "array" | "object", inner = "1"): string {
  return kind === "array"
    ? `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}${inner}${"}".repeat(depth)}`;
}

export const MALFORMED_JSON = [
  "{",
  '{"a":',
  "{'a':1}",
  "[1,]",
  "undefined",
  "NaN",
  '{"a":1}}',
  "\u0000",
  '{"a":"\\x41"}',
  '{"a":"\\ud800"}',
  "\uFEFF{}",
  "nul",
];

/** A raw body: not necessarily JSON, maybe deep, maybe over 64 KiB. */
export const rawBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...MALFORMED_JSON),
  fc.string({ maxLength: 200 }),
  fc
    .tuple(
      fc.integer({ min: 10, max: 30_000 }),
      fc.constantFrom("array" as const, "object" as const),
      fc.constantFrom("1", '"\\u0000"', '"\\udc00"'),
    )
    .map(([depth, kind, inner]) => deeplyNested(Math.min(depth, kind === "object" ? 12_000 : 30_000), kind, inner)),
  fc.integer({ min: 60_000, max: 70_000 }).map((size) => JSON.stringify({ description: "d".repeat(size) })),
);

export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      undefined,
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json; charset=utf-16",
      "application/merge-patch+json",
      "APPLICATION/JSON",
      "application/jsonp",
      "json",
    ),
  },
);

/** A header value the client can send: printable ASCII and Latin-1. */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
    minLength: 1,
    maxLength: 300,
  }),
  fc.string({
    unit: fc.integer({ min: 0xa1, max: 0xff }).map((code) => String.fromCharCode(code)),
    minLength: 1,
    maxLength: 20,
  }),
  fc.constantFrom(
    "API",
    "WEB",
    "ANDROID",
    "IOS",
    "api",
    "DZA",
    "DZ",
    "dza",
    "fr_FR",
    "ar",
    "xx-YY",
    "../..",
    "*",
    "null",
    "0",
  ),
);

export const FUZZED_HEADERS = [
  "x-platform",
  "x-locale",
  "x-country-code",
  "x-service",
  "idempotency-key",
  "x-request-id",
  "origin",
  "accept-language",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-client-token",
  "x-client-secret",
] as const;

/** A query-string tail that is not what URLSearchParams would write. */
export const rawQueryTail: fc.Arbitrary<string> = fc.constantFrom(
  "",
  "",
  "",
  "&%",
  "&a=%zz",
  "&b=%00",
  "&%ff%fe=1",
  "&&&=",
  "&a=b=c",
  "&c=%E0%A4%A",
  "&d[]=1&d[]=2",
  "&e[x]=1",
);
