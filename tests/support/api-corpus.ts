import { createHash } from "node:crypto";
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { OPERATIONS } from "@/lib/api/operations";
import { servesBrowsers } from "@/lib/http/cors";
import { getDb } from "@/lib/db/client";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { createMerchant, randomPhone } from "./factories";

/**
 * A corpus of requests covering every /api/v1 operation (success and its errors), 405s,
 * OPTIONS and CORS preflights, body limits (413 declared and streamed, 415), rate-limit
 * headers and a 429, idempotent replays, 503s while the database is away, compression, and the
 * edges of routing (trailing slash, HEAD, unknown paths, an encoded segment). `replayCorpus`
 * sends it to one server and records each answer as sent on the wire: status, raw header lines
 * in order (minus Date), and the body. tests/integration/api-door.test.ts holds the answers of
 * `npm start`'s door to the contract.
 *
 * The values a run creates (ids, secrets, phones, times) are replaced by placeholders numbered by
 * their first appearance in the run (the same value → the same placeholder), so a record reads
 * the same from run to run. Values that depend on the clock are masked: timestamps, the digits of
 * the RateLimit and Retry-After fields, and a Content-Length (checked against the body's length
 * first, since the placeholders change lengths).
 */

export const HOST = "gateway.example";
const SOME_UUID = "00000000-0000-4000-8000-000000000000";
/** Values a run creates, each replaced by a placeholder in the record. */
const GENERATED_VALUE = new RegExp(
  [
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, // ids
    /_secret_[0-9a-f]+/, // client secrets
    /(?:cat|crt|whsec|pk_service|msg|evt)_[A-Za-z0-9_-]+/, // prefixed tokens and keys
    /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/, // 32 random bytes in base64url
    /\b[0-9a-f]{32,}\b/, // hex digests
    /\+\d{11,12}/, // phone numbers
    /(?<![0-9A-Z])[0-9A-HJKMNP-TV-Z]{26}(?![0-9A-Z])/, // ULIDs
    /(?<="approvalCode":")[A-Z0-9]+/, // approval codes
  ]
    .map((part) => part.source)
    .join("|"),
  "g",
);

export interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body chunked, without a Content-Length. */
  chunked?: boolean;
}

export interface Recorded {
  name: string;
  method: string;
  path: string;
  status: number;
  headers: string[];
  body: string;
}

export interface CorpusTarget {
  port: number;
  /** Cuts the database off from the server (true) or lets it reconnect (false). */
  setDatabaseDown(down: boolean): Promise<void>;
}

class Run {
  readonly records: Recorded[] = [];
  private readonly placeholders = new Map<string, string>();
  private readonly explicit: string[] = [];
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private sentCount = 0;
  constructor(private readonly target: CorpusTarget) {}

  /** A value of this run only (a name, an action id): replaced by its placeholder wherever it appears. */
  volatile(...values: string[]) {
    this.explicit.push(...values.filter((value) => value.length > 0));
    this.explicit.sort((a, b) => b.length - a.length);
  }

  async send(
    name: string,
    sent: Sent,
  ): Promise<{ status: number; json: any; raw: Buffer; headers: http.IncomingHttpHeaders }> {
    const { status, rawHeaders, raw, headers } = await this.exchange(sent);
    const gzip = headers["content-encoding"] === "gzip";
    const body = gzip ? gunzipSync(raw) : raw;
    const contentType = String(headers["content-type"] ?? "");
    const lines: string[] = [];
    for (let index = 0; index < rawHeaders.length; index += 2) {
      const [field, value] = [rawHeaders[index]!, rawHeaders[index + 1]!];
      const lower = field.toLowerCase();
      if (lower === "date") continue;
      if (lower === "content-length") {
        if (Number(value) !== raw.length)
          throw new Error(`${name}: Content-Length ${value} for a body of ${raw.length} bytes`);
        lines.push(`${field}: <length>`);
      } else if (lower === "ratelimit" || lower === "retry-after") {
        lines.push(`${field}: ${value.replace(/\d+/g, "<n>")}`);
      } else {
        lines.push(`${field}: ${this.normalize(value)}`);
      }
    }
    let recordedBody: string;
    if (contentType.startsWith("image/png")) {
      if (body.subarray(1, 4).toString() !== "PNG") throw new Error(`${name}: not a PNG`);
      recordedBody = "<png>";
    } else {
      recordedBody = this.normalize(body.toString("utf8"));
    }
    // A body that holds nothing of this run (openapi.json): its bytes on the wire, compressed ones included.
    if (recordedBody === body.toString("utf8") && raw.length > 0)
      recordedBody += ` <wire sha256 ${createHash("sha256").update(raw).digest("hex")}>`;
    this.records.push({
      name,
      method: sent.method,
      path: this.normalize(decodedForTheRecord(sent.path)),
      status,
      headers: lines,
      body: recordedBody,
    });
    let json: any = null;
    try {
      json = JSON.parse(body.toString("utf8"));
    } catch {
      // Not JSON (a PNG, an empty 204).
    }
    return { status, json, raw: body, headers };
  }

  /** Sends without recording (the attempts before a rate limit's first refusal, whose count depends on the clock). */
  async probe(sent: Sent): Promise<number> {
    this.sentCount -= 1;
    const { status } = await this.exchange({ ...sent, headers: { "x-request-id": "corpus-probe", ...sent.headers } });
    return status;
  }

  private exchange(sent: Sent) {
    return new Promise<{ status: number; rawHeaders: string[]; raw: Buffer; headers: http.IncomingHttpHeaders }>(
      (resolve, reject) => {
        const body = sent.body === undefined ? undefined : Buffer.from(sent.body);
        // A request id of the corpus's own unless the step sends one: the same in both runs.
        this.sentCount += 1;
        const headers: Record<string, string> = {
          host: HOST,
          "x-request-id": `corpus-${this.sentCount}`,
          ...sent.headers,
        };
        if (body && !sent.chunked) headers["content-length"] = String(body.length);
        const request = http.request(
          {
            host: "127.0.0.1",
            port: this.target.port,
            method: sent.method,
            path: sent.path,
            headers,
            agent: this.agent,
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () =>
              resolve({
                status: response.statusCode ?? 0,
                rawHeaders: response.rawHeaders,
                raw: Buffer.concat(chunks),
                headers: response.headers,
              }),
            );
            response.on("error", reject);
          },
        );
        request.on("error", reject);
        if (body && sent.chunked) {
          // Several writes: the server sees a streamed body of unknown length.
          for (let offset = 0; offset < body.length; offset += 16 * 1024)
            request.write(body.subarray(offset, offset + 16 * 1024));
          request.end();
        } else {
          request.end(body);
        }
      },
    );
  }

  normalize(text: string): string {
    let out = text;
    for (const value of this.explicit) out = out.split(value).join(this.placeholder(value));
    return out
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g, "<time>")
      .replace(GENERATED_VALUE, (value) => this.placeholder(value));
  }

  private placeholder(value: string): string {
    let known = this.placeholders.get(value);
    if (!known) this.placeholders.set(value, (known = `<v${this.placeholders.size + 1}>`));
    return known;
  }

  close() {
    this.agent.destroy();
  }

  setDatabaseDown(down: boolean) {
    return this.target.setDatabaseDown(down);
  }
}

const json = (value: unknown) => JSON.stringify(value);
const JSON_TYPE = { "content-type": "application/json" };
const basic = (m: OnboardedMerchant) => `Bearer ${Buffer.from(`${m.clientId}:${m.clientSecret}`).toString("base64")}`;
const client = (m: OnboardedMerchant, extra: Record<string, string> = {}) => ({ authorization: basic(m), ...extra });
const server = (m: OnboardedMerchant, extra: Record<string, string> = {}) =>
  client(m, { "x-service": m.service, "x-platform": "API", ...extra });
const browser = (m: OnboardedMerchant, secret: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${m.publishableKey}`,
  "x-client-secret": secret,
  "x-platform": "WEB",
  ...extra,
});
const fill = (pattern: string) =>
  pattern.replace(":id", SOME_UUID).replace(":paymentId", SOME_UUID).replace(":phone", "+213555000000");

/** Sends the whole corpus to one server; its records, in order. */
export async function replayCorpus(target: CorpusTarget): Promise<Recorded[]> {
  const run = new Run(target);
  try {
    await corpus(run);
  } finally {
    await target.setDatabaseDown(false);
    run.close();
  }
  return run.records;
}

async function corpus(run: Run) {
  const merchant = await createMerchant();
  run.volatile(
    merchant.service,
    merchant.tenant,
    merchant.clientId,
    merchant.clientSecret,
    merchant.publishableKey,
    merchant.webhookSecret,
    merchant.name,
  );
  const actionId = (n: number) => {
    const id = `order-${merchant.clientId.slice(0, 8)}-${n}`;
    run.volatile(id);
    return id;
  };
  const intentBody = (n: number, extra: Record<string, unknown> = {}) =>
    json({
      actionId: actionId(n),
      amount: 1500,
      actionCurrencyCode: "DZD",
      actionCountryCode: "DZA",
      userId: randomPhone(),
      ...extra,
    });
  const create = async (name: string, n: number, extra: Record<string, unknown> = {}) => {
    const answer = await run.send(name, {
      method: "POST",
      path: "/api/v1/payments/intents?countryCode=DZA",
      headers: { ...server(merchant), ...JSON_TYPE },
      body: intentBody(n, extra),
    });
    if (answer.status !== 201) throw new Error(`${name}: ${answer.status} ${answer.raw.toString()}`);
    return answer.json.data as { paymentId: string; clientSecret: string };
  };

  // What every path answers before its handler runs: 405 with Allow, OPTIONS, a preflight on
  // merchant_auth routes, and 401 without a credential (or the handler's 404 for public doors).
  for (const path of [...new Set(OPERATIONS.map((operation) => operation.path))]) {
    const served = OPERATIONS.filter((operation) => operation.path === path);
    const refused = ["GET", "POST", "PUT", "PATCH", "DELETE"].find(
      (method) => !served.some((operation) => operation.method === method),
    )!;
    await run.send(`405 ${refused} ${path}`, { method: refused, path: fill(path) });
    await run.send(`OPTIONS ${path}`, { method: "OPTIONS", path: fill(path) });
    if (served.some((operation) => servesBrowsers(operation.auth))) {
      await run.send(`preflight ${path}`, {
        method: "OPTIONS",
        path: fill(path),
        headers: {
          origin: "https://shop.example",
          "access-control-request-method": served[0]!.method,
          "access-control-request-headers": "authorization, x-client-secret",
        },
      });
    }
    for (const operation of served) {
      const body = operation.method === "GET" ? undefined : "{}";
      await run.send(`no credential ${operation.method} ${path}`, {
        method: operation.method,
        path: fill(path),
        headers: { ...(body ? JSON_TYPE : {}), origin: "https://shop.example" },
        body,
      });
    }
  }

  // Request ids: echoed when sane, replaced when not.
  await run.send("request id echoed", {
    method: "GET",
    path: "/api/v1/customers/unknown",
    headers: client(merchant, { "x-request-id": "req-lane-1" }),
  });
  await run.send("request id replaced", {
    method: "GET",
    path: "/api/v1/customers/unknown",
    headers: client(merchant, { "x-request-id": "has space" }),
  });
  await run.send("request id fresh", {
    method: "POST",
    path: "/api/v1/customers",
    headers: { ...client(merchant), ...JSON_TYPE, "x-request-id": "" },
    body: "{}",
  });
  await run.send("repeated authorization", {
    method: "GET",
    path: "/api/v1/events?limit=1",
    headers: { authorization: [basic(merchant), "Bearer other"].join(", ") },
  });

  // Customers, their bodies and the body limits.
  const phone = randomPhone();
  const customerPath = "/api/v1/customers";
  const created = await run.send("create customer", {
    method: "POST",
    path: customerPath,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ name: "Lane", phone, email: "lane@example.com" }),
  });
  const customerId = created.json.data.id as string;
  await run.send("create customer twice", {
    method: "POST",
    path: customerPath,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ name: "Lane", phone }),
  });
  await run.send("create customer invalid", {
    method: "POST",
    path: customerPath,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ name: 7, phone: "1", email: "x" }),
  });
  await run.send("create customer 415", {
    method: "POST",
    path: customerPath,
    headers: { ...client(merchant), "content-type": "text/plain" },
    body: json({ name: "A", phone: randomPhone() }),
  });
  await run.send("create customer malformed", {
    method: "POST",
    path: customerPath,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: "{not json",
  });
  await run.send("create customer deep", {
    method: "POST",
    path: customerPath,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: "[".repeat(40) + "]".repeat(40),
  });
  await run.send("create customer NUL", {
    method: "POST",
    path: customerPath,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ name: "a\u0000b", phone: randomPhone() }),
  });
  const big = json({ name: "Big", phone: randomPhone(), padding: "x".repeat(70 * 1024) });
  await run.send("413 declared", {
    method: "POST",
    path: customerPath,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: big,
  });
  await run.send("413 streamed", {
    method: "POST",
    path: customerPath,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: big,
    chunked: true,
  });
  await run.send("streamed within the limit", {
    method: "POST",
    path: customerPath,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ name: "Streamed", phone: randomPhone() }),
    chunked: true,
  });
  await run.send("413 without credential", { method: "POST", path: customerPath, headers: JSON_TYPE, body: big });
  await run.send("query NUL", { method: "GET", path: "/api/v1/events?type=%00", headers: client(merchant) });
  await run.send("get customer", { method: "GET", path: `${customerPath}/${customerId}`, headers: client(merchant) });
  await run.send("get customer 404", {
    method: "GET",
    path: `${customerPath}/${SOME_UUID}`,
    headers: client(merchant),
  });
  await run.send("update customer", {
    method: "PUT",
    path: `${customerPath}/${customerId}`,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ name: "Lane Renamed" }),
  });
  await run.send("search customer", {
    method: "GET",
    path: `${customerPath}/search/${phone}`,
    headers: client(merchant),
  });
  await run.send("search customer invalid", {
    method: "GET",
    path: `${customerPath}/search/abc`,
    headers: client(merchant),
  });

  // Customer tokens, and user_auth with them.
  const token = await run.send("customer token", {
    method: "POST",
    path: "/api/v1/customer-access-token",
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ customerId }),
  });
  const refreshed = await run.send("refresh token", {
    method: "POST",
    path: "/api/v1/customer-access-token/refresh",
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ refreshToken: token.json.data.refreshToken, accessToken: token.json.data.accessToken }),
  });
  const accessToken = refreshed.json.data.accessToken as string;
  const user = { "x-client-token": accessToken, "x-service": merchant.service };
  await run.send("saved cards", { method: "GET", path: "/api/v1/cards?pmCode=CARD_PROVIDER", headers: user });
  await run.send("delete saved card 404", { method: "DELETE", path: `/api/v1/cards/${SOME_UUID}`, headers: user });
  await run.send("user payment methods", {
    method: "GET",
    path: "/api/v1/payment-methods?amount=1500&actionCountryCode=DZA&actionCurrencyCode=DZD",
    headers: { ...user, "x-platform": "API" },
  });
  await run.send("user payment methods invalid", {
    method: "GET",
    path: "/api/v1/payment-methods?amount=-1&actionCountryCode=DZA",
    headers: { ...user, "x-platform": "API" },
  });
  await run.send("revoke token", {
    method: "DELETE",
    path: "/api/v1/customer-access-token/revoke",
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ accessToken }),
  });
  await run.send("revoked token refused", { method: "GET", path: "/api/v1/cards?pmCode=CARD_PROVIDER", headers: user });

  await run.send("available methods", {
    method: "GET",
    path: "/api/v1/payment-methods/available?countryCode=DZ",
    headers: { ...client(merchant), "x-locale": "fr" },
  });
  await run.send("available methods invalid", {
    method: "GET",
    path: "/api/v1/payment-methods/available?countryCode=ZZ",
    headers: client(merchant),
  });
  await run.send("card provider key", {
    method: "GET",
    path: "/api/v1/payment-methods/card-provider/pk",
    headers: server(merchant),
  });

  // Payments: create, check (both credentials, CORS), proceed, capture, release, refund, replays.
  await run.send("create invalid", {
    method: "POST",
    path: "/api/v1/payments/intents?countryCode=DZA",
    headers: { ...server(merchant), ...JSON_TYPE },
    body: json({ amount: -1 }),
  });
  await run.send("create wrong secret", {
    method: "POST",
    path: "/api/v1/payments/intents?countryCode=DZA",
    headers: { authorization: `Bearer ${Buffer.from(`${merchant.clientId}:wrong`).toString("base64")}`, ...JSON_TYPE },
    body: intentBody(99),
  });
  const intent = await create("create", 1);
  const checkPath = `/api/v1/payments/intents/${intent.paymentId}/check`;
  await run.send("check client_auth", { method: "GET", path: checkPath, headers: server(merchant) });
  await run.send("check merchant_auth from the shop", {
    method: "GET",
    path: checkPath,
    headers: browser(merchant, intent.clientSecret, { origin: "https://shop.example" }),
  });
  await run.send("check merchant_auth from elsewhere", {
    method: "GET",
    path: checkPath,
    headers: browser(merchant, intent.clientSecret, { origin: "https://evil.example" }),
  });
  await run.send("check merchant_auth wrong secret", {
    method: "GET",
    path: checkPath,
    headers: browser(merchant, `${intent.paymentId}_secret_00`),
  });
  await run.send("check gzip accepted", {
    method: "GET",
    path: checkPath,
    headers: server(merchant, { "accept-encoding": "gzip, deflate, br" }),
  });
  await run.send("check 404", {
    method: "GET",
    path: `/api/v1/payments/intents/${SOME_UUID}/check`,
    headers: server(merchant),
  });
  await run.send("proceed invalid", {
    method: "POST",
    path: `/api/v1/payments/intents/${intent.paymentId}/proceed`,
    headers: { ...server(merchant), ...JSON_TYPE },
    body: json({ paymentMethodCode: "NOPE" }),
  });
  const proceeded = await run.send("proceed wallet", {
    method: "POST",
    path: `/api/v1/payments/intents/${intent.paymentId}/proceed`,
    headers: { ...server(merchant), ...JSON_TYPE },
    body: json({ paymentMethodCode: "WALLET_V2" }),
  });
  await run.send("capture not reserved", {
    method: "POST",
    path: `/api/v1/payments/intents/${intent.paymentId}/capture`,
    headers: { ...client(merchant), ...JSON_TYPE, "idempotency-key": `cap-${merchant.clientId}` },
    body: "{}",
  });
  await run.send("capture replayed", {
    method: "POST",
    path: `/api/v1/payments/intents/${intent.paymentId}/capture`,
    headers: { ...client(merchant), ...JSON_TYPE, "idempotency-key": `cap-${merchant.clientId}` },
    body: "{}",
  });
  await run.send("release", {
    method: "POST",
    path: `/api/v1/payments/intents/${intent.paymentId}/release`,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: "{}",
  });
  await run.send("finalize invalid", {
    method: "POST",
    path: `/api/v1/payments/intents/${intent.paymentId}/card-provider-finalize`,
    headers: { "x-client-secret": intent.clientSecret, ...JSON_TYPE },
    body: "{}",
  });

  const paid = await create("create to pay", 2);
  const otp = await run.send("proceed to OTP", {
    method: "POST",
    path: `/api/v1/payments/intents/${paid.paymentId}/proceed`,
    headers: { ...server(merchant), ...JSON_TYPE },
    body: json({ paymentMethodCode: "WALLET_V2" }),
  });
  const payToken = new URL(otp.json.data.metadata.payUrl).searchParams.get("token")!;
  await submitPaymentOtp(await getDb(), { paymentId: paid.paymentId, token: payToken, code: "123456" });
  const refundPath = `/api/v1/payments/${paid.paymentId}/refund`;
  const refundKey = { "idempotency-key": `refund-${merchant.clientId}` };
  run.volatile(refundKey["idempotency-key"], `cap-${merchant.clientId}`);
  await run.send("refund", {
    method: "POST",
    path: refundPath,
    headers: { ...client(merchant), ...JSON_TYPE, ...refundKey },
    body: json({ description: "lane" }),
  });
  await run.send("refund replayed", {
    method: "POST",
    path: refundPath,
    headers: { ...client(merchant), ...JSON_TYPE, ...refundKey },
    body: json({ description: "lane" }),
  });
  await run.send("refund key reused", {
    method: "POST",
    path: refundPath,
    headers: { ...client(merchant), ...JSON_TYPE, ...refundKey },
    body: json({ description: "other" }),
  });
  await run.send("refund again", {
    method: "POST",
    path: refundPath,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ description: "again" }),
  });
  await run.send("check paid", {
    method: "GET",
    path: `/api/v1/payments/intents/${paid.paymentId}/check`,
    headers: server(merchant),
  });

  // QR: image and status (with and without the page token), the sandbox wallet's answer.
  const qr = await create("create QR", 3, { transactionType: "QR_CODE" });
  const qrProceeded = await run.send("proceed QR", {
    method: "POST",
    path: `/api/v1/payments/intents/${qr.paymentId}/proceed`,
    headers: { ...server(merchant), ...JSON_TYPE },
    body: json({ paymentMethodCode: "WALLET_V2" }),
  });
  const imageUrl = new URL(qrProceeded.json.data.metadata.qrImageUrl);
  const qrToken = imageUrl.searchParams.get("token")!;
  await run.send("QR image", { method: "GET", path: `${imageUrl.pathname}${imageUrl.search}` });
  await run.send("QR image bad token", { method: "GET", path: `/api/v1/qr/${qr.paymentId}/image?token=nope` });
  await run.send("QR status", { method: "GET", path: `/api/v1/qr/${qr.paymentId}/status?token=${qrToken}` });
  await run.send("QR status bad token", { method: "GET", path: `/api/v1/qr/${qr.paymentId}/status?token=nope` });
  await run.send("QR answer", {
    method: "POST",
    path: `/api/v1/sandbox/payments/${qr.paymentId}/qr`,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ outcome: "approve" }),
  });
  await run.send("QR answer invalid", {
    method: "POST",
    path: `/api/v1/sandbox/payments/${qr.paymentId}/qr`,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ outcome: "maybe" }),
  });

  // Payment links: create (and a refusal), list, get, deactivate.
  const linksPath = "/api/v1/payment-links";
  const link = await run.send("create payment link", {
    method: "POST",
    path: linksPath,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ title: "Lane", amount: 1500, currency: "DZD", countryCode: "DZA" }),
  });
  await run.send("create payment link invalid", {
    method: "POST",
    path: linksPath,
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ title: "", currency: "XXX" }),
  });
  await run.send("payment links", { method: "GET", path: `${linksPath}?limit=5`, headers: client(merchant) });
  await run.send("payment link", {
    method: "GET",
    path: `${linksPath}/${link.json.data.id}`,
    headers: client(merchant),
  });
  await run.send("payment link 404", {
    method: "GET",
    path: `${linksPath}/plink_00000000000000000000000000`,
    headers: client(merchant),
  });
  await run.send("deactivate payment link", {
    method: "POST",
    path: `${linksPath}/${link.json.data.id}/deactivate`,
    headers: client(merchant),
  });

  // Sandbox helpers, events (a list long enough to be compressed), the provider's webhook.
  await run.send("advance clock", {
    method: "POST",
    path: "/api/v1/sandbox/clock",
    headers: { ...client(merchant), ...JSON_TYPE },
    body: json({ advanceSeconds: 60 }),
  });
  await run.send("reset clock", { method: "DELETE", path: "/api/v1/sandbox/clock", headers: client(merchant) });
  await run.send("sandbox webhooks", { method: "GET", path: "/api/v1/sandbox/webhooks", headers: client(merchant) });
  const events = await run.send("events", {
    method: "GET",
    path: "/api/v1/events?limit=20",
    headers: client(merchant, { "accept-encoding": "gzip" }),
  });
  const eventId = events.json.data[0].id as string;
  await run.send("events invalid query", {
    method: "GET",
    path: "/api/v1/events?limit=abc",
    headers: client(merchant),
  });
  await run.send("event", { method: "GET", path: `/api/v1/events/${eventId}`, headers: client(merchant) });
  await run.send("event 404", { method: "GET", path: "/api/v1/events/msg_nope", headers: client(merchant) });
  await run.send("redeliver", {
    method: "POST",
    path: `/api/v1/events/${eventId}/redeliver`,
    headers: client(merchant),
  });
  await run.send("card provider event unsigned", {
    method: "POST",
    path: "/api/v1/webhooks/card-provider",
    headers: JSON_TYPE,
    body: json({ id: "evt_1", type: "payment_intent.succeeded" }),
  });
  await run.send("card provider event too large", {
    method: "POST",
    path: "/api/v1/webhooks/card-provider",
    headers: JSON_TYPE,
    body: big,
    chunked: true,
  });
  await run.send("openapi.json", { method: "GET", path: "/api/v1/openapi.json" });
  await run.send("openapi.json gzip", {
    method: "GET",
    path: "/api/v1/openapi.json",
    headers: { "accept-encoding": "gzip" },
  });

  // The edges of routing: a trailing slash, HEAD, unknown paths, an encoded segment.
  await run.send("trailing slash", { method: "GET", path: `${checkPath}/`, headers: server(merchant) });
  await run.send("HEAD", { method: "HEAD", path: checkPath, headers: server(merchant) });
  await run.send("unknown path", { method: "GET", path: "/api/v1/no-such-thing" });
  await run.send("api root", { method: "POST", path: "/api/v1" });
  await run.send("unknown path preflight", {
    method: "OPTIONS",
    path: "/api/v1/no-such-thing",
    headers: { origin: "https://shop.example", "access-control-request-method": "GET" },
  });
  await run.send("encoded segment", {
    method: "GET",
    path: `/api/v1/payments/intents/${intent.paymentId.replace("-", "%2D")}/check`,
    headers: server(merchant),
  });
  await run.send("escaped prefix", {
    method: "GET",
    path: `/%61pi/v1/payments/intents/${intent.paymentId}/check`,
    headers: server(merchant),
  });
  await run.send("escaped prefix slash", { method: "GET", path: "/api%2Fhealth" });
  await run.send("malformed escape", {
    method: "GET",
    path: "/api/v1/payments/intents/%ZZ/check",
    headers: server(merchant),
  });
  await run.send("method no route takes", { method: "TRACE", path: checkPath });

  // The rest of /api, through the same door: health, readiness, metrics (no METRICS_TOKEN: no such path),
  // a callback, a path of none.
  await run.send("health", { method: "GET", path: "/api/health" });
  await run.send("health HEAD", { method: "HEAD", path: "/api/health" });
  await run.send("health posted", { method: "POST", path: "/api/health" });
  await run.send("readiness", { method: "GET", path: "/api/health/ready" });
  await run.send("metrics", { method: "GET", path: "/api/metrics" });
  await run.send("wallet callback preflight", { method: "OPTIONS", path: "/api/wallet-callbacks/qr-requests" });
  await run.send("unknown path outside v1", { method: "GET", path: "/api/no-such-thing" });

  // Rate limits: a client secret allows 120 checks a minute; the first refusal.
  const limited = await create("create to limit", 4);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const status = await run.probe({
      method: "GET",
      path: `/api/v1/payments/intents/${limited.paymentId}/check`,
      headers: browser(merchant, limited.clientSecret),
    });
    if (status === 429) {
      await run.send("rate limited", {
        method: "GET",
        path: `/api/v1/payments/intents/${limited.paymentId}/check`,
        headers: browser(merchant, limited.clientSecret),
      });
      break;
    }
  }

  // The database away: 503 for what needs it; what does not still answers.
  await run.setDatabaseDown(true);
  await run.send("503 create", {
    method: "POST",
    path: "/api/v1/payments/intents?countryCode=DZA",
    headers: { ...server(merchant), ...JSON_TYPE },
    body: intentBody(5),
  });
  await run.send("503 check", { method: "GET", path: checkPath, headers: server(merchant) });
  await run.send("405 while away", { method: "PUT", path: checkPath });
  await run.send("preflight while away", {
    method: "OPTIONS",
    path: checkPath,
    headers: { origin: "https://shop.example", "access-control-request-method": "GET" },
  });
  await run.setDatabaseDown(false);
  await run.send("back after the outage", { method: "GET", path: checkPath, headers: server(merchant) });
}

/** The path as read (a malformed escape kept as sent). */
function decodedForTheRecord(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
