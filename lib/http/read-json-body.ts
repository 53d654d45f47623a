import { ApiError } from "./api-error";

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
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("validation_error", "The body is not valid JSON.", [{ path: "(body)", message: "malformed JSON" }]);
  }
}

async function readCapped(request: Request): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
