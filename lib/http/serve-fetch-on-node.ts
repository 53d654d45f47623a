import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

/** What a server answers when its handler throws: by default the wallet's JSON 500. */
type AnswerFailure = (outgoing: ServerResponse, error: unknown) => void;

const answerInternalError: AnswerFailure = (outgoing) => {
  outgoing.statusCode = 500;
  outgoing.setHeader("content-type", "application/json");
  outgoing.end(
    JSON.stringify({ error: { name: "internal_error", message: "The wallet could not complete the request." } }),
  );
};

/**
 * Adapts a fetch-style handler (Request → Response) to node:http, for the wallet's own process, the
 * simulators' processes and tests. `baseUrl` gives the origin of each request's URL.
 */
export function serveFetchHandler(
  handler: (request: Request) => Promise<Response>,
  baseUrl: (incoming: IncomingMessage) => string,
  answerFailure: AnswerFailure = answerInternalError,
): RequestListener {
  return (incoming, outgoing) => {
    toRequest(incoming, baseUrl(incoming))
      .then(handler)
      .then(async (response) => {
        outgoing.statusCode = response.status;
        response.headers.forEach((value, name) => outgoing.setHeader(name, value));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch((error: unknown) => answerFailure(outgoing, error));
  };
}

export async function toRequest(incoming: IncomingMessage, baseUrl: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) value.forEach((item) => headers.append(name, item));
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = chunks.length > 0 && incoming.method !== "GET" && incoming.method !== "HEAD";
  return new Request(new URL(incoming.url ?? "/", baseUrl), {
    method: incoming.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
  });
}
