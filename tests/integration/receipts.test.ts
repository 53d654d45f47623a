import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as receiptPdf } from "@/app/[locale]/pay/return/[paymentId]/receipt/route";
import { POST as sendReceipt } from "@/app/[locale]/pay/return/[paymentId]/receipt/email/route";
import { getConfig, type Config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { hostedFormToken } from "@/lib/hosted/hosted-form-route";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { getReturnPageView } from "@/lib/hosted/views/return-page-view";
import type { Locale } from "@/lib/i18n/routing";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { createMerchant } from "../support/factories";
import { createIntent, proceedToOtp } from "../support/payments";
import { pdfText } from "../support/pdf-text";
import { useTestGateway } from "../support/test-gateway";

const { api } = useTestGateway();
const holder = globalThis as unknown as { gatewayConfig?: Config };

/** What a real SMTP server received. */
const received: { to: string[]; raw: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, callback) {
    let raw = "";
    stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    stream.on("end", () => {
      received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw });
      callback();
    });
  },
});
let configBefore: Config;
let smtpUrl: string;
let merchant: OnboardedMerchant;
/** A payment its buyer paid (1,500.00 DZD), with the return page's token. */
let paid: { paymentId: string; actionId: string; token: string };

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  configBefore = getConfig();
  merchant = await createMerchant({ name: "Atlas Épicerie" });
  const intent = await createIntent(api, merchant);
  const token = await proceedToOtp(api, merchant, intent.paymentId);
  const outcome = await submitPaymentOtp(await getDb(), { paymentId: intent.paymentId, token, code: "123456" });
  if (outcome.statusCode !== 2) throw new Error(`the payment ended with ${outcome.statusCode}`);
  paid = { paymentId: intent.paymentId, actionId: intent.body.actionId, token };
});

afterAll(async () => {
  holder.gatewayConfig = configBefore;
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** A message's Subject header, its RFC 2047 encoded words (as nodemailer writes them) decoded. */
function decodedSubject(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)![1]!.replace(/\r?\n[ \t]/g, " ");
  return header.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_word, encoding: string, text: string) =>
    encoding.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(
          text
            .replace(/_/g, " ")
            .replace(/=([0-9A-F]{2})/gi, (_hex, byte: string) => String.fromCharCode(parseInt(byte, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

function useSmtp(url: string | undefined) {
  holder.gatewayConfig = { ...configBefore, SMTP_URL: url };
}

function getPdf(locale: string, paymentId: string, token: string) {
  const url = `https://gateway.example/${locale}/pay/return/${paymentId}/receipt?token=${token}`;
  return receiptPdf(new Request(url), { params: Promise.resolve({ locale, paymentId }) });
}

async function postReceipt(locale: string, paymentId: string, fields: Record<string, string>) {
  const request = new Request(`https://gateway.example/${locale}/pay/return/${paymentId}/receipt/email`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
    body: new URLSearchParams(fields).toString(),
  });
  return sendReceipt(request, { params: Promise.resolve({ locale, paymentId }) });
}

describe("the receipt PDF (issue 43: Download receipt (PDF), in the page's language)", () => {
  const expected: Record<Locale, { title: string; amount: string; outcome: string }> = {
    en: { title: "Payment receipt", amount: "DZD 1,500.00", outcome: "Payment successful" },
    fr: { title: "Reçu de paiement", amount: "1 500,00 DZD", outcome: "Paiement réussi" },
    ar: { title: "إيصال الدفع", amount: "1,500.00 DZD", outcome: "تم الدفع بنجاح" },
  };

  for (const locale of ["en", "fr", "ar"] as const) {
    it(`states merchant, amount with its decimals, outcome, actionId and payment id (${locale})`, async () => {
      const response = await getPdf(locale, paid.paymentId, paid.token);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("cache-control")).toContain("no-store");
      expect(response.headers.get("content-disposition")).toMatch(
        new RegExp(`^attachment; filename="[a-z]+-${paid.paymentId}\\.pdf"$`),
      );
      const text = await pdfText(new Uint8Array(await response.arrayBuffer()));
      const { title, amount, outcome } = expected[locale];
      expect(text).toContain(title);
      expect(text).toContain("Atlas Épicerie");
      expect(text).toContain(amount);
      expect(text).toContain(outcome);
      expect(text).toContain(paid.actionId);
      expect(text).toContain(paid.paymentId);
    });
  }

  it("is no receipt at all for a wrong token or another payment's token", async () => {
    const other = await createIntent(api, merchant);
    const otherToken = await proceedToOtp(api, merchant, other.paymentId);
    for (const [paymentId, token] of [
      [paid.paymentId, otherToken],
      [paid.paymentId, "f".repeat(64)],
      [paid.paymentId, ""],
      ["00000000-0000-4000-8000-000000000000", paid.token],
    ] as const) {
      const response = await getPdf("en", paymentId, token);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toContain("text/html");
      expect(await response.text()).not.toContain("Atlas Épicerie");
    }
  });
});

describe("the return page's receipt (every method's: one piece)", () => {
  async function view(locale: Locale, paymentId: string, token: string) {
    const rendered = await getReturnPageView(await getDb(), { locale, paymentId, query: hostedPageQuery({ token }) });
    if (rendered.kind !== "render") throw new Error(rendered.kind);
    return rendered;
  }

  it("offers the PDF under the page's own token and no email form without SMTP_URL", async () => {
    useSmtp(undefined);
    const { receipt } = await view("fr", paid.paymentId, paid.token);
    expect(receipt?.pdfHref).toBe(`/fr/pay/return/${paid.paymentId}/receipt?token=${paid.token}`);
    expect(receipt?.email).toBeNull();
    expect(receipt?.content.rows.map((row) => [row.label, row.value])).toEqual(
      expect.arrayContaining([
        ["Marchand", "Atlas Épicerie"],
        ["Référence de commande", paid.actionId],
        ["Résultat", "Paiement réussi"],
      ]),
    );
  });

  it("offers no receipt while the payment still waits for its buyer", async () => {
    const waiting = await createIntent(api, merchant);
    const token = await proceedToOtp(api, merchant, waiting.paymentId);
    expect((await view("en", waiting.paymentId, token)).receipt).toBeNull();
  });
});

describe("Send receipt (when SMTP_URL is set)", () => {
  it("emails the receipt in the page's language with its PDF, and the page says so", async () => {
    useSmtp(smtpUrl);
    const { receipt } = await (async () => {
      const rendered = await getReturnPageView(await getDb(), {
        locale: "fr",
        paymentId: paid.paymentId,
        query: hostedPageQuery({ token: paid.token }),
      });
      if (rendered.kind !== "render") throw new Error(rendered.kind);
      return rendered;
    })();
    expect(receipt?.email?.action).toBe(`/fr/pay/return/${paid.paymentId}/receipt/email`);
    const response = await postReceipt("fr", paid.paymentId, {
      token: paid.token,
      formToken: receipt!.email!.formToken,
      email: "buyer@example.com",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(
      `/fr/pay/return/${paid.paymentId}?token=${paid.token}&notice=receipt_sent&stay=1#receipt`,
    );
    const mail = received.find((message) => message.to.includes("buyer@example.com"));
    expect(mail).toBeDefined();
    // The subject is MIME-encoded (it has accents): decoded, it speaks French and names the merchant.
    expect(decodedSubject(mail!.raw)).toBe("Votre reçu de Atlas Épicerie");
    expect(mail!.raw).toContain("Content-Type: application/pdf");
    expect(mail!.raw).toMatch(/filename=.?recu-/);
  });

  it("refuses an address that is not one, beside the field, and sends nothing", async () => {
    useSmtp(smtpUrl);
    const before = received.length;
    const formToken = await hostedFormToken(await getDb(), "receipt", paid.token);
    const response = await postReceipt("en", paid.paymentId, { token: paid.token, formToken, email: "not an address" });
    expect(response.headers.get("location")).toContain("notice=receipt_email_invalid");
    expect(received.length).toBe(before);
  });

  it("sends at most five a payment in ten minutes", async () => {
    useSmtp(smtpUrl);
    const intent = await createIntent(api, merchant);
    const token = await proceedToOtp(api, merchant, intent.paymentId);
    const formToken = await hostedFormToken(await getDb(), "receipt", token);
    const notices: string[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const response = await postReceipt("en", intent.paymentId, {
        token,
        formToken,
        email: `limit${attempt}@example.com`,
      });
      notices.push(new URL(response.headers.get("location")!, "https://x.example").searchParams.get("notice")!);
    }
    expect(notices).toEqual([...Array(5).fill("receipt_sent"), "receipt_too_many"]);
    expect(received.some((message) => message.to.includes("limit5@example.com"))).toBe(false);
  });

  it("sends no receipt of someone else's payment: its token is needed, and the form token is bound to it", async () => {
    useSmtp(smtpUrl);
    const before = received.length;
    const mine = await createIntent(api, merchant);
    const myToken = await proceedToOtp(api, merchant, mine.paymentId);
    const myFormToken = await hostedFormToken(await getDb(), "receipt", myToken);
    // My page's tokens, posted to the address of the other payment.
    const forged = await postReceipt("en", paid.paymentId, {
      token: myToken,
      formToken: myFormToken,
      email: "thief@example.com",
    });
    expect(forged.headers.get("location")).toContain("notice=receipt_failed");
    // The other payment's token without its form token.
    const refused = await postReceipt("en", paid.paymentId, {
      token: paid.token,
      formToken: myFormToken,
      email: "thief@example.com",
    });
    expect(refused.status).toBe(403);
    expect(received.length).toBe(before);
    expect(received.some((message) => message.to.includes("thief@example.com"))).toBe(false);
  });
});

describe("the receipt's time (issue 42: in the merchant's time zone, the zone named)", () => {
  /**
   * The time as the receipt must write it: in `zone`, its offset named as the language names it; the zone's
   * name on the next line.
   */
  const inZone = (at: Date, locale: Locale, zone: string) =>
    new Intl.DateTimeFormat(`${locale}-u-nu-latn`, { dateStyle: "long", timeStyle: "long", timeZone: zone }).format(at);
  const rowOf = (rows: { field: string; value: string; ltr: boolean }[], field: string) =>
    rows.find((entry) => entry.field === field)!;
  const updatedAt = async (paymentId: string) => {
    const { payments } = await import("@/lib/db/schema");
    const { eq } = await import("drizzle-orm");
    const [row] = await (
      await getDb()
    )
      .select({ at: payments.updatedAt })
      .from(payments)
      .where(eq(payments.id, paymentId));
    return row!.at;
  };

  it("is in its first country's zone by default, on the page (en, fr, ar) and in the PDF", async () => {
    const at = await updatedAt(paid.paymentId);
    for (const locale of ["en", "fr", "ar"] as const) {
      const rendered = await getReturnPageView(await getDb(), {
        locale,
        paymentId: paid.paymentId,
        query: hostedPageQuery({ token: paid.token }),
      });
      if (rendered.kind !== "render") throw new Error(rendered.kind);
      const { rows } = rendered.receipt!.content;
      expect(rowOf(rows, "dateTime").value, locale).toBe(inZone(at, locale, "Africa/Algiers"));
      expect(rowOf(rows, "dateTime").value).toContain({ en: "GMT+1", fr: "UTC+1", ar: "غرينتش+1" }[locale]);
      expect(rowOf(rows, "timeZone")).toMatchObject({
        value: "Africa/Algiers",
        ltr: true,
        label: { en: "Time zone", fr: "Fuseau horaire", ar: "المنطقة الزمنية" }[locale],
      });
    }
    const pdf = await pdfText(new Uint8Array(await (await getPdf("en", paid.paymentId, paid.token)).arrayBuffer()));
    expect(pdf).toContain("Africa/Algiers");
    expect(pdf).toContain("GMT+1");
  });

  it("follows the merchant's own setting: a Tokyo shop's receipt says GMT+9 (Asia/Tokyo)", async () => {
    const { updateMerchantSettings } = await import("@/lib/console/merchants/merchant-settings");
    const shop = await createMerchant({ countries: ["DZA"] });
    const intent = await createIntent(api, shop);
    const token = await proceedToOtp(api, shop, intent.paymentId);
    await submitPaymentOtp(await getDb(), { paymentId: intent.paymentId, token, code: "123456" });
    const { serviceIdOf } = await import("../support/payments");
    await updateMerchantSettings(await getDb(), {
      actor: { userId: null, email: "owner@shop.example", ip: null },
      serviceId: await serviceIdOf(shop),
      changes: { timeZone: "Asia/Tokyo" },
    });
    const at = await updatedAt(intent.paymentId);
    const rendered = await getReturnPageView(await getDb(), {
      locale: "fr",
      paymentId: intent.paymentId,
      query: hostedPageQuery({ token }),
    });
    if (rendered.kind !== "render") throw new Error(rendered.kind);
    expect(rowOf(rendered.receipt!.content.rows, "dateTime").value).toBe(inZone(at, "fr", "Asia/Tokyo"));
    expect(rowOf(rendered.receipt!.content.rows, "timeZone").value).toBe("Asia/Tokyo");

    useSmtp(smtpUrl);
    const formToken = await hostedFormToken(await getDb(), "receipt", token);
    await postReceipt("en", intent.paymentId, { token, formToken, email: "tokyo@example.com" });
    const mail = received.find((message) => message.to.includes("tokyo@example.com"));
    const body = mail!.raw.replace(/=\r?\n/g, "");
    expect(body).toContain("GMT+9");
    expect(body).toContain("Time zone: Asia/Tokyo");
  });
});
