import { ApiError } from "../errors/api-error";

export const MAX_BODY_BYTES = 64 * 1024;

const tooLarge = () => new ApiError("payload_too_large", `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);

/** Reads at most 64 KiB; an absent body is `{}` so `POST .../release` with no body works. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declaredLength = Number(request.headers.get("content-length") ?? "0");
  if (declaredLength > MAX_BODY_BYTES) throw tooLarge();

  const text = await readCapped(request);
  if (text.trim() === "") return {};

  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/([a-z.+-]*\+)?json\s*(;|$)/i.test(contentType.trim())) {
    throw new ApiError("unsupported_media_type", "Send the body as application/json.");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("validation_error", "The body is not valid JSON.", [
      { path: "(body)", message: "malformed JSON" },
    ]);
  }
  const unsafe = findUnstorableValue(parsed);
  if (unsafe) {
    throw new ApiError("validation_error", "The request is invalid.", [
      { path: unsafe.path.join(".") || "(root)", message: unsafe.message },
    ]);
  }
  return parsed;
}

/** Deeper than any body of this API needs; deeper still costs every recursive reader a stack. */
export const MAX_JSON_DEPTH = 32;

// An unpaired UTF-16 surrogate: JSON allows it as an escape, UTF-8 (and so PostgreSQL) cannot hold it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first value PostgreSQL could not store as sent, a key no object can keep, or nesting
 * too deep for the recursive code after us (zod, idempotency fingerprints, jsonb): each
 * would otherwise surface as a 500 or be stored altered. Iterative, so a hostile depth cannot overflow it.
 */
function findUnstorableValue(root: unknown): { path: string[]; message: string } | null {
  const stack: { value: unknown; path: string[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === "string") {
      const problem = stringProblem(value);
      if (problem) return { path, message: problem };
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (path.length >= MAX_JSON_DEPTH) return { path, message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` };
    for (const [key, item] of Object.entries(value)) {
      // JSON.parse keeps it as a key, but any later copy into an object sets the prototype instead: it would vanish.
      const problem = key === "__proto__" ? "must not use the reserved key __proto__" : stringProblem(key);
      if (problem) return { path: [...path, key], message: problem };
      stack.push({ value: item, path: [...path, key] });
    }
  }
  return null;
}

function stringProblem(value: string): string | null {
  if (value.includes("\0")) return "must not contain the character U+0000";
  if (LONE_SURROGATE.test(value)) return "must be well-formed Unicode (no unpaired surrogate)";
  return null;
}

/** The raw body text, at most 64 KiB (a signed webhook is verified on the exact bytes). */
export async function readCapped(request: Request): Promise<string> {
  const bytes = await readBodyUpTo(request, MAX_BODY_BYTES);
  if (!bytes) throw tooLarge();
  return bytes.toString("utf8");
}

/** The body's bytes, or null once they pass `limit` (a missing or lying Content-Length included). */
export async function readBodyUpTo(request: Request, limit: number): Promise<Buffer | null> {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
