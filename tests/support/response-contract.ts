import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { errorNamesOf, type Operation } from "@/lib/api/operations/operation";
import { OPERATIONS } from "@/lib/api/operations";
import type { ApiResponse } from "./api";

const matchers = OPERATIONS.map((operation) => ({
  operation,
  pattern: new RegExp(`^${operation.path.replace(/:\w+/g, "[^/]+")}$`),
}));

/** The registry's operation serving `method path` (the query ignored), if any. */
export function operationFor(method: string, path: string): Operation | undefined {
  const pathname = new URL(path, "http://gateway.test").pathname;
  return matchers.find((matcher) => matcher.operation.method === method && matcher.pattern.test(pathname))?.operation;
}

const successEnvelope = z.object({
  code: z.number(),
  status: z.literal("success"),
  message: z.string().min(1),
  data: z.unknown(),
});
const errorEnvelope = z.object({
  code: z.number(),
  status: z.literal("error"),
  message: z.string().min(1),
  error: z.strictObject({
    name: z.string(),
    requestId: z.string(),
    details: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
  }),
});

/**
 * What is wrong with an answer of a documented operation, measured against the operation's
 * own schemas (the ones the OpenAPI document is built from): the envelope, `data` against the
 * response schema with no undocumented field, and an error name the operation documents.
 */
export function contractProblems(method: string, path: string, response: ApiResponse): string[] {
  const operation = operationFor(method, path);
  if (!operation) return [];
  const where = `${method} ${operation.path} answered ${response.status}`;
  const isJson = (response.headers.get("content-type") ?? "").startsWith("application/json");
  if (response.status < 400 && operation.rawResponse) {
    const type = response.headers.get("content-type") ?? "";
    return type.startsWith(operation.rawResponse.contentType) ? [] : [`${where} with content-type ${type}`];
  }
  if (!isJson) return [`${where} with content-type ${response.headers.get("content-type")}`];
  if (response.status < 400) {
    const expected = operation.status ?? 200;
    const envelope = successEnvelope.safeParse(response.body);
    if (!envelope.success) return [`${where}: not a success envelope: ${z.prettifyError(envelope.error)}`];
    const problems = response.status === expected ? [] : [`${where}, documented ${expected}`];
    if (envelope.data.code !== response.status) problems.push(`${where} with code ${envelope.data.code}`);
    const extra = z.object(operation.envelopeFields ?? {}).safeParse(response.body);
    if (!extra.success) problems.push(`${where}: envelope fields do not match: ${z.prettifyError(extra.error)}`);
    const schema = operation.response as z.ZodType | undefined;
    if (!schema) return [...problems, `${where}: the operation documents no response schema`];
    const data = schema.safeParse(envelope.data.data);
    if (!data.success) return [...problems, `${where}: data does not match its schema: ${z.prettifyError(data.error)}`];
    // Parsing drops unknown fields: a difference is a field the schema does not document.
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(data.data)), envelope.data.data)) {
      problems.push(
        `${where}: data has fields its schema does not document: ${JSON.stringify(envelope.data.data).slice(0, 300)}`,
      );
    }
    return problems;
  }
  const envelope = errorEnvelope.safeParse(response.body);
  if (!envelope.success) return [`${where}: not an error envelope: ${z.prettifyError(envelope.error)}`];
  const name = envelope.data.error.name;
  return (errorNamesOf(operation) as string[]).includes(name)
    ? []
    : [`${where}: error ${name} is not documented for this operation`];
}
