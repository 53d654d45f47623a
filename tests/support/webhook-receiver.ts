import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

/** What the receiver does with one request: answer a status (after a delay), or hold it open. */
export type ReceiverAnswer = { status: number; delayMs?: number; headers?: Record<string, string> } | "hold";

/**
 * A merchant's webhook endpoint on 127.0.0.1: records every request it gets and answers as
 * the test's `answer` function says (by default 204).
 */
export async function startWebhookReceiver(
  answer: (request: ReceivedWebhook, received: ReceivedWebhook[]) => ReceiverAnswer = () => ({ status: 204 }),
) {
  const received: ReceivedWebhook[] = [];
  const held = new Set<ServerResponse>();
  const waiters: { predicate: () => boolean; resolve: () => void }[] = [];

  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request: ReceivedWebhook = {
        path: incoming.url ?? "/",
        headers: Object.fromEntries(
          Object.entries(incoming.headers).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(", ") : (value ?? ""),
          ]),
        ),
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
      };
      received.push(request);
      const decision = answer(request, received);
      for (const waiter of [...waiters]) {
        if (waiter.predicate()) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      if (decision === "hold") {
        held.add(outgoing);
        outgoing.on("close", () => held.delete(outgoing));
        return;
      }
      const reply = () => {
        outgoing.writeHead(decision.status, decision.headers);
        outgoing.end();
      };
      if (decision.delayMs) setTimeout(reply, decision.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    received,
    /** Resolves once `predicate` holds (checked on every request), or rejects after `timeoutMs`. */
    waitFor(predicate: () => boolean, timeoutMs = 20_000): Promise<void> {
      if (predicate()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver: condition not met within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          predicate,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
