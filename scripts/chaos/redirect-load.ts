import { randomInt } from "node:crypto";
import { getDb } from "../../lib/db/client";
import { hostedFormToken } from "../../lib/hosted/hosted-form-route";
import type { OnboardedMerchant } from "../../lib/merchants/onboard-merchant.schema";
import { payWithRedirect } from "../../lib/payments/hosted/redirect-payment";
import {
  bump,
  clientHeaders,
  create,
  expectStatus,
  key,
  note,
  onPage,
  poll,
  proceed,
  refundConcurrently,
  serverHeaders,
  tokenOf,
  type Ctx,
  type ExtraScenario,
} from "./load";

/**
 * The redirect card rails in the chaos load (contract 15): the merchant's server proceeds, the
 * buyer presses Pay on the page before the provider's (its form posted to the gateway as a
 * browser without JavaScript posts it: the terms ticked, the sandbox's anti-bot code), pays on
 * the provider's simulated page over HTTP (or cancels, is declined, fails 3-D Secure, or leaves
 * the order unpaid), and comes back through the gateway's return, or never does (the
 * reconciliation job settles the order). Then the merchant refunds in part, and for the rails
 * with reservations captures (all or part) or releases. The providers' money calls suffer the
 * run's faults (provider-faults.ts).
 */
export type RedirectRail = "SATIM" | "CLICTOPAY" | "CMI" | "CHARGILY";

const RAILS: Record<
  RedirectRail,
  { currency: string; country: string; amount: () => number; reservations: boolean; refunds: boolean }
> = {
  // SATIM registers 50 DZD at least.
  SATIM: {
    currency: "DZD",
    country: "DZA",
    amount: () => Number(`${randomInt(50, 900)}.${String(randomInt(0, 100)).padStart(2, "0")}`),
    reservations: false,
    refunds: true,
  },
  CLICTOPAY: {
    currency: "TND",
    country: "TUN",
    amount: () => Number(`${randomInt(1, 300)}.${String(randomInt(0, 1000)).padStart(3, "0")}`),
    reservations: true,
    refunds: true,
  },
  CMI: {
    currency: "MAD",
    country: "MAR",
    amount: () => Number(`${randomInt(10, 900)}.${String(randomInt(0, 100)).padStart(2, "0")}`),
    reservations: true,
    refunds: true,
  },
  // Whole dinars only; its API cannot refund (409, refunded on Chargily's dashboard).
  CHARGILY: { currency: "DZD", country: "DZA", amount: () => randomInt(75, 900), reservations: false, refunds: false },
};

const CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The buyer's browser on the provider's page: a form post, the provider's 303 (or, for CMI, its page posting
 * the buyer back).
 */
async function postOnProvider(
  url: string,
  fields: Record<string, string>,
): Promise<{ status: number; location?: string; html: string }> {
  const response = await fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(url).origin },
    body: new URLSearchParams(fields),
    signal: AbortSignal.timeout(30_000),
  });
  return {
    status: response.status,
    location: response.headers.get("location") ?? undefined,
    html: await response.text(),
  };
}

/** A page's form: its action and fields (hidden inputs), for CMI's pages that post the buyer on. */
function formOf(html: string, base: string): { action: string; fields: Record<string, string> } | null {
  const form = /<form\b[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) return null;
  const unescape = (value: string) =>
    value
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
      .replace(/&amp;/g, "&")
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">");
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input\b[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(input[0])?.[1];
    const value = /\bvalue="([^"]*)"/.exec(input[0])?.[1];
    if (name && value !== undefined) fields[unescape(name)] = unescape(value);
  }
  return { action: new URL(unescape(form[1]!), base).toString(), fields };
}

/**
 * Pay pressed on the page before the provider's; answers where the buyer's browser goes next
 * (the provider's page, or CMI's gate with its signed form), or null when the payment no longer
 * waits or the provider stayed away for every press.
 */
async function pressPay(
  ctx: Ctx,
  rail: RedirectRail,
  paymentId: string,
  token: string,
  gateway: string,
): Promise<{ url: string; form?: Record<string, string> } | null> {
  const db = await onPage(ctx.stats, () => getDb());
  for (let press = 0; press < 4; press += 1) {
    if (rail === "CMI") {
      // CMI has no registration call: the page renders the signed form its Pay button posts to CMI's gate.
      const started = await onPage(ctx.stats, () => payWithRedirect(db, { paymentId, token, locale: "en" })).catch(
        (error: unknown) => note(ctx, "CMI pay", error),
      );
      if (started?.kind === "go" && "form" in started && started.form)
        return { url: started.form.action, form: started.form.fields };
      if (started?.kind !== "unavailable") return null;
    } else {
      const formToken = await onPage(ctx.stats, () => hostedFormToken(db, "redirect", token));
      const form = new URLSearchParams({ token, formToken, acceptTerms: "yes", antiBotCode: "123456" });
      const answer = await ctx.client.call("POST", `/en/pay/redirect/${paymentId}/go`, {
        form,
        headers: { origin: gateway, "sec-fetch-site": "same-origin" },
      });
      if (!expectStatus(ctx, `${rail} pay`, answer, 303) || !answer.location) return null;
      const next = new URL(answer.location, gateway);
      if (next.origin !== gateway) return { url: next.toString() };
      // Back on the page with "provider unavailable" (a fault on the registration): press again.
      if (next.searchParams.get("notice") !== "provider_unavailable") return null;
      bump(ctx.stats.buyers, `${rail} pressed Pay again (provider unavailable)`);
    }
    await sleep(1000);
  }
  return null;
}

/**
 * The buyer on the provider's page; answers where the provider sends the browser back (the gateway's return),
 * or null (left unpaid).
 */
async function onProviderPage(
  ctx: Ctx,
  rail: RedirectRail,
  start: { url: string; form?: Record<string, string> },
): Promise<string | null> {
  const roll = randomInt(20);
  // 1 in 20 leaves the provider's page without paying: the order stays open until the payment expires.
  if (roll === 0) {
    bump(ctx.stats.buyers, `${rail} left the order unpaid`);
    return null;
  }
  const card =
    roll === 1
      ? { ...CARD, cardNumber: "4000 0000 0000 0002" }
      : roll === 2 && rail !== "CMI" && rail !== "CHARGILY"
        ? { ...CARD, cardNumber: "4000 0000 0000 3220" }
        : CARD;
  const action = roll === 3 ? "cancel" : "pay";
  const outcome =
    action === "cancel"
      ? "canceled"
      : card.cardNumber.endsWith("0002")
        ? "declined"
        : card.cardNumber.endsWith("3220")
          ? "3-D Secure"
          : "paid";
  bump(ctx.stats.buyers, `${rail} ${outcome}`);
  try {
    let url = start.url;
    if (start.form) {
      // CMI's gate answers its payment page for the signed form; its card form posts to the page's address.
      const gate = await postOnProvider(url, start.form);
      const page = gate.status === 200 ? formOf(gate.html, url) : null;
      if (!page) return note(ctx, `${rail} gate`, new Error(`answered ${gate.status}`));
      url = page.action;
    } else {
      const page = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      await page.text();
      if (page.status !== 200) return note(ctx, `${rail} page`, new Error(`answered ${page.status}`));
    }
    const fields: Record<string, string> = {
      action,
      ...(action === "pay" ? CARD : {}),
      ...(action === "pay" ? card : {}),
      ...(rail === "CHARGILY" ? { paymentMethod: "cib" } : {}),
    };
    let answer = await postOnProvider(url, fields);
    // 3-D Secure: the challenge page, completed or failed.
    if (answer.status === 200 && card.cardNumber.endsWith("3220"))
      answer = await postOnProvider(url, { action: randomInt(3) === 0 ? "fail" : "complete" });
    if (answer.status === 303 && answer.location) return answer.location;
    // CMI's page posts the buyer back to okUrl / failUrl with its fields (an auto-submitted form).
    const back = answer.status === 200 ? formOf(answer.html, url) : null;
    if (back) return back.action;
    return note(ctx, `${rail} page`, new Error(`answered ${answer.status}`));
  } catch (error) {
    return note(ctx, `${rail} page`, error);
  }
}

async function payWithRail(ctx: Ctx, rail: RedirectRail, gateway: string) {
  const setup = RAILS[rail];
  const reserve = setup.reservations && randomInt(2) === 0;
  const intent = await create(ctx, {
    actionCurrencyCode: setup.currency,
    actionCountryCode: setup.country,
    amount: setup.amount(),
    captureMethod: reserve ? "RESERVATION" : "DIRECT",
  });
  if (!intent) return;
  const proceeded = await proceed(ctx, intent.paymentId, rail);
  if (!proceeded?.metadata?.payUrl) return;
  const token = tokenOf(proceeded.metadata.payUrl);
  const start = await pressPay(ctx, rail, intent.paymentId, token, gateway);
  if (!start) return;
  const back = await onProviderPage(ctx, rail, start);
  if (!back) return;
  // 1 in 4 buyers never come back: the reconciliation job asks the provider (every 10 s).
  if (randomInt(4) === 0) {
    bump(ctx.stats.buyers, `${rail} never came back`);
    return;
  }
  const returned = new URL(back, gateway);
  const answer = await ctx.client.call(
    rail === "CMI" ? "POST" : "GET",
    `${returned.pathname}${returned.search}`,
    rail === "CMI" ? { form: new URLSearchParams() } : {},
  );
  expectStatus(ctx, `${rail} return`, answer, 303);
  const code = await poll(ctx, intent.paymentId, (status) => status !== 12 && status !== 1, 5);
  if (code === 13) {
    const headers = clientHeaders(ctx.merchant, key());
    const choice = randomInt(3);
    if (choice === 0) {
      expectStatus(
        ctx,
        `${rail} release`,
        await ctx.client.call("POST", `/api/v1/payments/intents/${intent.paymentId}/release`, { body: {}, headers }),
        200,
        409,
      );
      return;
    }
    const check = await ctx.client.call("GET", `/api/v1/payments/intents/${intent.paymentId}/check`, {
      headers: serverHeaders(ctx.merchant),
    });
    const amount = Number(check.body?.data?.amount ?? 0);
    const body = choice === 1 && amount > 2 ? { amount: Math.floor(amount * 50) / 100 } : {};
    const captured = await ctx.client.call("POST", `/api/v1/payments/intents/${intent.paymentId}/capture`, {
      body,
      headers,
    });
    if (expectStatus(ctx, `${rail} capture`, captured, 200, 409) && randomInt(2) === 0)
      await refundConcurrently(ctx, intent.paymentId);
  } else if (code === 2 && randomInt(2) === 0) {
    if (setup.refunds) await refundConcurrently(ctx, intent.paymentId);
    else {
      const refused = await ctx.client.call("POST", `/api/v1/payments/${intent.paymentId}/refund`, {
        body: { description: "chaos refund" },
        headers: clientHeaders(ctx.merchant, key()),
      });
      expectStatus(ctx, `${rail} refund (refunded on the provider's dashboard)`, refused, 409);
    }
  }
}

/**
 * One scenario per rail, on the merchant that has the redirect methods (DZA, MAR, TUN), against the gateways'
 * public address.
 */
export function redirectScenarios(options: {
  merchant: OnboardedMerchant;
  gateway: string;
  rails: RedirectRail[];
  weight: number;
}): Record<string, ExtraScenario> {
  return Object.fromEntries(
    options.rails.map((rail): [string, ExtraScenario] => [
      `redirect${rail.charAt(0)}${rail.slice(1).toLowerCase()}`,
      { weight: options.weight, merchant: options.merchant, run: (ctx) => payWithRail(ctx, rail, options.gateway) },
    ]),
  );
}
