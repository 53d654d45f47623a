import { randomBytes } from "node:crypto";
import type { RehearsalBrowser } from "./browser";
import type { GuideCommand } from "./guide-commands";
import { runGuideCommand, type Env } from "./processes";
import { step } from "./steps";

interface Payment {
  paymentId: string;
  env: Env;
}

interface Check {
  statusCode: number;
  status: string;
  amount: number;
}

/** One of the guide's curl commands; its envelope's `data` (a failing call throws what it said). */
async function call<T>(id: GuideCommand, env: Env): Promise<T> {
  const result = await runGuideCommand(id, env);
  if (result.code !== 0) throw new Error(`${id}: ${result.stderr || result.stdout}`.slice(0, 1000));
  return (JSON.parse(result.stdout) as { data: T }).data;
}

/** The capture command prints the status line and headers too (`curl -i`), for Retry-After. */
async function captureCall(env: Env): Promise<{
  status: number;
  retryAfter: string | null;
  body: { data?: { statusCode: number }; error?: { name: string } };
}> {
  const result = await runGuideCommand("capture", env);
  if (result.code !== 0) throw new Error(`capture: ${result.stderr}`);
  const [head = "", ...rest] = result.stdout.split(/\r?\n\r?\n/);
  return {
    status: Number(/^HTTP\/[\d.]+ (\d+)/.exec(head)?.[1]),
    retryAfter: /^retry-after:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? null,
    body: JSON.parse(rest.join("\n\n")),
  };
}

export interface PaymentSteps {
  apiEnv: Env;
  browser: RehearsalBrowser;
  newPhone(): string;
  /** The merchant's terms of payment (set with its SATIM credentials), linked on the page before SATIM's. */
  termsUrl: string;
  stopWallet(): Promise<void>;
  restartWallet(): Promise<void>;
}

async function newPayment(
  options: PaymentSteps,
  amount: number,
  captureMethod: "DIRECT" | "RESERVATION",
  method: "WALLET_V2" | "CARD_PROVIDER" | "CMI" | "CHARGILY" | "SATIM" | "CLICTOPAY",
) {
  const env: Env = {
    ...options.apiEnv,
    ORDER_ID: `rehearsal-${randomBytes(6).toString("hex")}`,
    AMOUNT: String(amount),
    BUYER_PHONE: options.newPhone(),
    CAPTURE_METHOD: captureMethod,
    METHOD: method,
  };
  // Each country's own intent command of the guide: MAR in MAD for CMI, TUN in TND for ClicToPay, DZA in DZD
  // for the others.
  const created = await call<{ paymentId: string }>(
    method === "CMI" ? "createCmiIntent" : method === "CLICTOPAY" ? "createClictopayIntent" : "createIntent",
    env,
  );
  const payment: Payment = { paymentId: created.paymentId, env: { ...env, PAYMENT_ID: created.paymentId } };
  const proceeded = await call<{ statusCode: number; metadata: { payUrl: string } }>("proceed", payment.env);
  if (proceeded.statusCode !== 12 || !proceeded.metadata.payUrl)
    throw new Error(`proceed answered ${JSON.stringify(proceeded)}`);
  return { payment, payUrl: proceeded.metadata.payUrl };
}

const checkOf = (payment: Payment) => call<Check>("check", payment.env);

function expectCode(check: Check, statusCode: number, what: string) {
  if (check.statusCode !== statusCode)
    throw new Error(`${what}: check says ${check.statusCode} (${check.status}), expected ${statusCode}`);
}

/** The money paths of the rehearsal, each through the gateway's real HTTP API and hosted pages. */
export async function rehearsePayments(options: PaymentSteps): Promise<void> {
  const { browser } = options;

  await step("wallet payment", "1500 DZD, DIRECT: proceed, the OTP page with the operator's code 123456", async () => {
    const { payment, payUrl } = await newPayment(options, 1500, "DIRECT", "WALLET_V2");
    const heading = await browser.payWithOtp(payUrl, "123456");
    expectCode(await checkOf(payment), 2, heading);
    return `${heading}; check: 2`;
  });

  await step("reservation", "2000 DZD reserved with OTP, 1200 captured, 500 refunded", async () => {
    const { payment, payUrl } = await newPayment(options, 2000, "RESERVATION", "WALLET_V2");
    const heading = await browser.payWithOtp(payUrl, "123456");
    expectCode(await checkOf(payment), 13, heading);
    const captured = await captureCall({ ...payment.env, CAPTURE_AMOUNT: "1200" });
    if (captured.status !== 200 || captured.body.data?.statusCode !== 2)
      throw new Error(`capture: ${captured.status} ${JSON.stringify(captured.body)}`);
    await call("refund", { ...payment.env, REFUND_AMOUNT: "500" });
    const check = await checkOf(payment);
    expectCode(check, 16, "after the partial refund");
    return `${heading}; captured 1200 (check: 2), refunded 500 (check: 16, amount ${check.amount})`;
  });

  await step(
    "card payment",
    "3000 DZD on the production card page (Stripe.js routed to the simulator), then refunded",
    async () => {
      const { payment, payUrl } = await newPayment(options, 3000, "DIRECT", "CARD_PROVIDER");
      const heading = await browser.payByCard(payUrl, { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" });
      expectCode(await checkOf(payment), 2, heading);
      await call("refund", { ...payment.env, REFUND_AMOUNT: "3000" });
      expectCode(await checkOf(payment), 4, "after the refund");
      return `${heading}; refunded 3000 (check: 4)`;
    },
  );

  await step(
    "CMI payment",
    "250.50 MAD, DIRECT: the signed form posted to the CMI simulator (its own process), its callback, refunded in part",
    async () => {
      const { payment, payUrl } = await newPayment(options, 250.5, "DIRECT", "CMI");
      const heading = await browser.payWithCmi(payUrl, { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" });
      expectCode(await checkOf(payment), 2, heading);
      await call("refund", { ...payment.env, REFUND_AMOUNT: "50.25" });
      expectCode(await checkOf(payment), 16, "after the partial refund");
      return `${heading}; refunded 50.25 (check: 16)`;
    },
  );

  await step("CMI reservation", "300 MAD pre-authorized at CMI, 199.99 captured (PostAuth)", async () => {
    const { payment, payUrl } = await newPayment(options, 300, "RESERVATION", "CMI");
    const heading = await browser.payWithCmi(payUrl, { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" });
    expectCode(await checkOf(payment), 13, heading);
    const captured = await captureCall({ ...payment.env, CAPTURE_AMOUNT: "199.99" });
    if (captured.status !== 200 || captured.body.data?.statusCode !== 2)
      throw new Error(`capture: ${captured.status} ${JSON.stringify(captured.body)}`);
    return `${heading}; captured 199.99 (check: 2)`;
  });

  await step(
    "SATIM payment",
    "1250.75 DZD, DIRECT: the terms ticked and ALTCHA solved in the page, " +
      "SATIM's page (its simulator, its own process), refunded in part",
    async () => {
      const { payment, payUrl } = await newPayment(options, 1250.75, "DIRECT", "SATIM");
      const { heading, support } = await browser.payWithSatim(
        payUrl,
        { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" },
        options.termsUrl,
      );
      expectCode(await checkOf(payment), 2, heading);
      if (!support.includes("3020")) throw new Error(`the return page's SATIM support says "${support}", without 3020`);
      await call("refund", { ...payment.env, REFUND_AMOUNT: "250.75" });
      expectCode(await checkOf(payment), 16, "after the partial refund");
      return `${heading}, SATIM's support line 3020 shown; refunded 250.75 (check: 16)`;
    },
  );

  await step(
    "ClicToPay payment",
    "42.125 TND, DIRECT: ClicToPay's page (its simulator, its own process), millimes end to end, refunded in part",
    async () => {
      const { payment, payUrl } = await newPayment(options, 42.125, "DIRECT", "CLICTOPAY");
      const heading = await browser.payWithClictopay(payUrl, {
        number: "5555 5555 5555 4444",
        expiry: "12/34",
        cvc: "123",
      });
      const check = await checkOf(payment);
      expectCode(check, 2, heading);
      if (check.amount !== 42.125) throw new Error(`check says amount ${check.amount}, not 42.125`);
      await call("refund", { ...payment.env, REFUND_AMOUNT: "2.125" });
      expectCode(await checkOf(payment), 16, "after the partial refund");
      return `${heading}; check: 2, amount 42.125; refunded 2.125 (check: 16)`;
    },
  );

  await step(
    "ClicToPay reservation",
    "80.500 TND pre-authorized at ClicToPay (registerPreAuth.do), 55.375 captured through the API (deposit.do)",
    async () => {
      const { payment, payUrl } = await newPayment(options, 80.5, "RESERVATION", "CLICTOPAY");
      const heading = await browser.payWithClictopay(payUrl, {
        number: "4242 4242 4242 4242",
        expiry: "12/34",
        cvc: "123",
      });
      expectCode(await checkOf(payment), 13, heading);
      const captured = await captureCall({ ...payment.env, CAPTURE_AMOUNT: "55.375" });
      if (captured.status !== 200 || captured.body.data?.statusCode !== 2)
        throw new Error(`capture: ${captured.status} ${JSON.stringify(captured.body)}`);
      const check = await checkOf(payment);
      if (check.amount !== 55.375) throw new Error(`captured ${check.amount}, expected 55.375`);
      return `${heading}; captured 55.375 (check: 2, amount ${check.amount})`;
    },
  );

  await step(
    "chargily payment",
    "2500 DZD with Chargily Pay over HTTP: its checkout, its signed webhook, the return",
    async () => {
      const { payment, payUrl } = await newPayment(options, 2500, "DIRECT", "CHARGILY");
      const checkoutUrl = await pressRedirectPay(payUrl);
      const origin = new URL(checkoutUrl).origin;
      // The buyer pays on Chargily's (simulated) checkout; Chargily posts its signed webhook to the gateway
      // before sending the buyer back.
      const paid = await fetch(checkoutUrl, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({
          action: "pay",
          paymentMethod: "cib",
          cardNumber: "4242 4242 4242 4242",
          expiry: "12/34",
          cvc: "123",
        }),
      });
      const back = paid.headers.get("location");
      if (paid.status !== 303 || !back) throw new Error(`Chargily's checkout answered ${paid.status}`);
      expectCode(await checkOf(payment), 2, "after Chargily's webhook, before the buyer's return");
      const returned = await fetch(back, { redirect: "manual" });
      if (returned.status !== 303) throw new Error(`the return answered ${returned.status}`);
      expectCode(await checkOf(payment), 2, "after the return");
      return `checkout ${checkoutUrl.split("/").pop()} paid; check: 2 from the webhook, unchanged by the return`;
    },
  );

  await step(
    "provider outage",
    "the wallet stopped before a capture, restarted, reconciliation settles it once",
    async () => {
      const { payment, payUrl } = await newPayment(options, 1000, "RESERVATION", "WALLET_V2");
      expectCode(await checkOf(payment), 12, "before the code");
      const heading = await browser.payWithOtp(payUrl, "123456");
      expectCode(await checkOf(payment), 13, heading);
      await options.stopWallet();
      const refused = await captureCall({ ...payment.env, CAPTURE_AMOUNT: "700" });
      if (refused.status !== 503 || refused.body.error?.name !== "provider_unavailable" || !refused.retryAfter) {
        throw new Error(
          `capture during the outage: ${refused.status} ${JSON.stringify(refused.body)} ` +
            `(Retry-After ${refused.retryAfter})`,
        );
      }
      await options.restartWallet();
      const settledBy = Date.now() + 90_000;
      let check = await checkOf(payment);
      while (check.statusCode !== 2) {
        if (Date.now() > settledBy) throw new Error(`not settled: check says ${check.statusCode}`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        check = await checkOf(payment);
      }
      // The merchant's retry with the same Idempotency-Key gets the one outcome, not a second capture.
      const retried = await captureCall({ ...payment.env, CAPTURE_AMOUNT: "700" });
      if (retried.status !== 200 || retried.body.data?.statusCode !== 2)
        throw new Error(`retry: ${retried.status} ${JSON.stringify(retried.body)}`);
      if (check.amount !== 700) throw new Error(`captured ${check.amount}, expected 700 once`);
      return (
        `503 provider_unavailable (Retry-After ${refused.retryAfter}); ` +
        `after the restart check: 2, captured 700 once; the retry answers 200`
      );
    },
  );
}

/**
 * The gateway's page before the provider's, as a browser without JavaScript uses it: its form posted, the 303
 * to the provider's page.
 */
async function pressRedirectPay(payUrl: string): Promise<string> {
  const page = await fetch(payUrl);
  const html = await page.text();
  const action = /<form\b[^>]*\baction="([^"]*\/go)"/.exec(html)?.[1];
  if (page.status !== 200 || !action) {
    const forms = html.match(/<form\b[^>]*>/g) ?? [];
    throw new Error(
      `the page before the provider's (${page.url}) answered ${page.status} ` +
        `without its Pay form (forms: ${forms.join(" ") || "none"})`,
    );
  }
  const unescape = (value: string) =>
    value
      .replace(/&amp;/g, "&")
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">");
  const fields = new URLSearchParams();
  for (const input of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g))
    fields.set(input[1]!, unescape(input[2]!));
  const { origin } = new URL(payUrl);
  const pressed = await fetch(new URL(unescape(action), payUrl), {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin, "sec-fetch-site": "same-origin" },
    body: fields,
  });
  const location = pressed.headers.get("location");
  if (pressed.status !== 303 || !location) throw new Error(`Pay answered ${pressed.status}`);
  if (new URL(location, payUrl).origin === origin) throw new Error(`Pay stayed on the gateway: ${location}`);
  return location;
}
