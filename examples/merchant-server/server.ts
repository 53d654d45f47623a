// An example merchant server on the typed client: checkout (create, then send the buyer to the
// gateway's hosted checkout, where they choose how to pay), the buyer's return (confirmed by
// check), signed webhooks, capture and refund.
//   GATEWAY_URL=http://localhost:3000 CLIENT_ID=... CLIENT_SECRET=... SERVICE=... \
//   WEBHOOK_SECRET=whsec_... PORT=4242 npm run example:merchant
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { Webhook } from "standardwebhooks";
import { createGatewayClient, type components, type ServerCredentials } from "../../clients/typescript";

type WebhookPayload = components["schemas"]["WebhookPayload"];

export interface MerchantServerOptions {
  gateway: ServerCredentials;
  /** The `whsec_` secret printed once at onboarding. */
  webhookSecret: string;
  port?: number;
  host?: string;
}

export interface MerchantServer {
  url: string;
  /** Verified notifications, in arrival order (deduplicated on their id). */
  events: WebhookPayload[];
  close(): Promise<void>;
}

export async function startMerchantServer(options: MerchantServerOptions): Promise<MerchantServer> {
  const gateway = createGatewayClient(options.gateway);
  const webhook = new Webhook(options.webhookSecret);
  const events: WebhookPayload[] = [];
  let url = "";

  async function checkout(form: URLSearchParams, response: ServerResponse) {
    const created = await gateway.POST("/api/v1/payments/intents", {
      params: { query: { countryCode: "DZA" } },
      body: {
        actionId: `order-${randomUUID()}`,
        amount: Number(form.get("amount") ?? "1500.5"),
        actionCurrencyCode: "DZD",
        actionCountryCode: "DZA",
        userId: form.get("phone") ?? "+213555123456",
        captureMethod: form.get("captureMethod") === "RESERVATION" ? "RESERVATION" : "DIRECT",
      },
    });
    if (!created.data) return send(response, 502, `Create failed: ${created.error?.message}`);
    // The hosted checkout offers the methods enabled for the country, proceeds the one the buyer
    // chooses and brings them back to /return (returnUrl: its origin is the shop's redirect URL's).
    return redirect(response, `${created.data.data.checkoutUrl}&returnUrl=${encodeURIComponent(`${url}/return`)}`);
  }

  /** The redirect's statusCode is only a hint: the answer comes from check. */
  async function buyerReturns(query: URLSearchParams, response: ServerResponse) {
    const paymentId = query.get("paymentId") ?? "";
    const checked = await gateway.GET("/api/v1/payments/intents/{id}/check", {
      params: { path: { id: paymentId }, header: { "x-platform": "WEB" } },
    });
    if (!checked.data) return send(response, 404, "Unknown payment.");
    const outcome: Record<number, string> = { 2: "Payment succeeded", 3: "Payment failed", 13: "Payment authorized" };
    const { statusCode, amount, currencyCode } = checked.data.data;
    return send(
      response,
      200,
      `${outcome[statusCode] ?? `Payment status ${statusCode}`}: ${amount} ${currencyCode} (${paymentId})`,
    );
  }

  function receiveWebhook(request: IncomingMessage, body: string, response: ServerResponse) {
    try {
      const payload = webhook.verify(body, request.headers as Record<string, string>) as WebhookPayload;
      // At-least-once delivery: the same id may come again.
      if (!events.some((event) => event.id === payload.id)) events.push(payload);
      return send(response, 204, "");
    } catch {
      return send(response, 400, "Bad signature.");
    }
  }

  async function capture(paymentId: string, body: { amount?: number }, response: ServerResponse) {
    const captured = await gateway.POST("/api/v1/payments/intents/{id}/capture", {
      params: { path: { id: paymentId }, header: { "Idempotency-Key": `capture-${paymentId}` } },
      body: body.amount === undefined ? {} : { amount: body.amount },
    });
    return json(response, captured.response.status, captured.data ?? captured.error);
  }

  async function refund(paymentId: string, body: { amount?: number; key?: string }, response: ServerResponse) {
    const refunded = await gateway.POST("/api/v1/payments/{paymentId}/refund", {
      params: { path: { paymentId }, header: { "Idempotency-Key": body.key ?? randomUUID() } },
      body: {
        description: "refund from the example shop",
        ...(body.amount === undefined ? {} : { amount: body.amount }),
      },
    });
    return json(response, refunded.response.status, refunded.data ?? refunded.error);
  }

  const server = createServer(async (request, response) => {
    try {
      const target = new URL(request.url ?? "/", "http://shop.local");
      const body = await readBody(request);
      const order = /^\/orders\/([\w-]+)\/(capture|refund)$/.exec(target.pathname);
      if (request.method === "GET" && target.pathname === "/") {
        return send(
          response,
          200,
          '<form method="post" action="/checkout"><button>Pay 1500.50 DZD</button></form>',
          "text/html",
        );
      }
      if (request.method === "POST" && target.pathname === "/checkout")
        return await checkout(new URLSearchParams(body), response);
      if (request.method === "GET" && target.pathname === "/return")
        return await buyerReturns(target.searchParams, response);
      if (request.method === "POST" && target.pathname === "/webhooks") return receiveWebhook(request, body, response);
      if (request.method === "POST" && order) {
        const input = body ? (JSON.parse(body) as { amount?: number; key?: string }) : {};
        return await (order[2] === "capture"
          ? capture(order[1]!, input, response)
          : refund(order[1]!, input, response));
      }
      return send(response, 404, "Not found.");
    } catch (error) {
      return send(response, 500, `Shop error: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  url = `http://${options.host ?? "127.0.0.1"}:${(server.address() as AddressInfo).port}`;
  return { url, events, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => resolve(text));
    request.on("error", reject);
  });
}

function send(response: ServerResponse, status: number, text: string, type = "text/plain; charset=utf-8") {
  response.writeHead(status, { "content-type": type }).end(text);
}

function json(response: ServerResponse, status: number, value: unknown) {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

function redirect(response: ServerResponse, location: string) {
  response.writeHead(303, { location }).end();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const env = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`Set ${name} (see the comment at the top of this file).`);
    return value;
  };
  const shop = await startMerchantServer({
    gateway: {
      baseUrl: env("GATEWAY_URL"),
      clientId: env("CLIENT_ID"),
      clientSecret: env("CLIENT_SECRET"),
      service: env("SERVICE"),
    },
    webhookSecret: env("WEBHOOK_SECRET"),
    port: Number(process.env.PORT ?? 4242),
  });
  console.log(`Example shop on ${shop.url}; webhook URL ${shop.url}/webhooks`);
}
