import { errorStatus } from "@/lib/errors/api-error";
import type { ApiResponse } from "../api";
import { operationFor } from "../response-contract";

const ERROR_NAMES = new Set(Object.keys(errorStatus));
// What must never reach a caller: stack frames, SQL, driver errors, file paths.
const LEAK = new RegExp(
  [
    /\bat [\w.<>]+ \(/, // a stack frame
    /node_modules|\.ts:\d+/, // a file path
    /\bselect\b[^"]*\bfrom\b|\binsert into\b|\bupdate \w+ set\b/, // SQL
    /duplicate key|violates|syntax error|postgres|pglite|drizzle/, // the driver's words
  ]
    .map((part) => part.source)
    .join("|"),
  "i",
);

/**
 * Everything wrong with `response` as a contract answer (section 1), or an empty list: a
 * JSON envelope whose code is the status, an error name from the contract whose status it
 * is, the request id of the header, and nothing internal in any message. Never a 5xx.
 */
export function envelopeProblems(response: ApiResponse): string[] {
  const problems: string[] = [];
  const { status, body, headers } = response;
  if (status >= 500) problems.push(`status ${status}`);
  const requestId = headers.get("x-request-id");
  if (!requestId) problems.push("no x-request-id header");
  // A documented answer that is not the envelope: the QR image, the OpenAPI document.
  if (status < 300 && response.request && operationFor(response.request.method, response.request.path)?.rawResponse)
    return problems;
  if (!(headers.get("content-type") ?? "").startsWith("application/json"))
    problems.push(`content-type ${headers.get("content-type")}`);
  if (typeof body !== "object" || body === null)
    return [...problems, `body is not a JSON object: ${String(body).slice(0, 120)}`];
  if (body.code !== status) problems.push(`code ${body.code} for status ${status}`);
  if (typeof body.message !== "string" || body.message === "") problems.push("no message");
  if (status < 400) {
    if (body.status !== "success") problems.push(`status field ${body.status} on a ${status}`);
    return problems;
  }
  if (body.status !== "error") problems.push(`status field ${body.status} on a ${status}`);
  const name = body.error?.name;
  if (!ERROR_NAMES.has(name)) problems.push(`unknown error name ${name}`);
  else if (errorStatus[name as keyof typeof errorStatus] !== status) problems.push(`${name} answered with ${status}`);
  if (body.error?.requestId !== requestId) problems.push("error.requestId differs from the x-request-id header");
  const texts = [
    body.message,
    ...((body.error?.details ?? []) as { message?: string }[]).map((detail) => detail.message ?? ""),
  ];
  for (const text of texts)
    if (LEAK.test(String(text))) problems.push(`internal detail in a message: ${String(text).slice(0, 200)}`);
  return problems;
}

/** The body with what legitimately differs between two equal answers (the request id) taken out. */
export function comparable(response: ApiResponse) {
  const body = structuredClone(response.body) as { error?: { requestId?: string } } | null;
  if (body?.error) delete body.error.requestId;
  return { status: response.status, body };
}

/** A short description of an answer for failure messages. */
export function describe(response: ApiResponse): string {
  return `${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
}
