import { readBodyUpTo } from "../http/read-json-body";
import { hasNulCharacter } from "../validation/nul-character";

/** A hosted form posts a token, a code and a few hidden fields: 8 KB is generous. */
export const FORM_BODY_LIMIT_BYTES = 8 * 1024;

export type FormBody = Readonly<Record<string, string>>;

/**
 * What readFormBody answers for a form one of whose fields holds U+0000: the caller answers
 * formRefusedResponse("nul_character"), 400.
 */
export const NUL_CHARACTER_IN_FORM = "nul_character";

/**
 * A hosted form's fields, or null for anything that is not a well-formed form body within
 * the limit (wrong type, oversized, malformed multipart or urlencoded): the caller answers 400.
 * Files are never accepted; of a repeated field the first value counts. A field holding U+0000
 * (lib/validation/nul-character.ts) is refused too (NUL_CHARACTER_IN_FORM, also a 400), as the
 * API refuses it: no query ever sees it.
 */
export async function readFormBody(request: Request): Promise<FormBody | null | typeof NUL_CHARACTER_IN_FORM> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const urlencoded = type.startsWith("application/x-www-form-urlencoded");
  if (!urlencoded && !type.startsWith("multipart/form-data")) return null;
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (!Number.isFinite(declared) || declared > FORM_BODY_LIMIT_BYTES) return null;
  let bytes: Buffer | null;
  try {
    bytes = await readBodyUpTo(request, FORM_BODY_LIMIT_BYTES);
  } catch {
    return null; // the client broke the stream off
  }
  if (!bytes) return null;

  const fields: Record<string, string> = {};
  if (urlencoded) {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return null;
    }
    for (const [name, value] of new URLSearchParams(text)) if (!(name in fields)) fields[name] = value;
    return withoutNulCharacter(fields);
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": type } }).formData();
  } catch {
    return null;
  }
  for (const [name, value] of form) {
    if (typeof value !== "string") return null;
    if (!(name in fields)) fields[name] = value;
  }
  return withoutNulCharacter(fields);
}

function withoutNulCharacter(fields: Record<string, string>): FormBody | typeof NUL_CHARACTER_IN_FORM {
  for (const name in fields) if (hasNulCharacter(name) || hasNulCharacter(fields[name]!)) return NUL_CHARACTER_IN_FORM;
  return fields;
}
