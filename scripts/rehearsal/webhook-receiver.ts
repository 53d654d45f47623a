import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface WebhookReceiver {
  url: string;
  /** The webhook-id of every delivery whose signature held. */
  verified: Set<string>;
  /** Deliveries whose signature did not hold. */
  refused: number;
  close(): Promise<void>;
}

/**
 * The merchant's webhook endpoint, as `gateway listen --forward-to` reaches it: checks each signature with the
 * webhook secret.
 */
export async function startWebhookReceiver(webhookSecret: string): Promise<WebhookReceiver> {
  const verifier = new Webhook(webhookSecret);
  const receiver: WebhookReceiver = { url: "", verified: new Set(), refused: 0, close: async () => {} };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      verifier.verify(Buffer.concat(chunks).toString("utf8"), request.headers as Record<string, string>);
      receiver.verified.add(String(request.headers["webhook-id"]));
      response.writeHead(204).end();
    } catch {
      receiver.refused += 1;
      response.writeHead(401).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}
