import { createServer, type AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig, type Config } from "@/lib/config";
import { takeFlash } from "@/lib/console/web/console-flash";
import { findOpenInvitation } from "@/lib/console/access/invitations";
import { getDb } from "@/lib/db/client";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { consoleSessionOf, createConsoleUser, postForm, uniqueEmail } from "../../support/console";
import { createMerchant } from "../../support/factories";
import { useTestGateway } from "../../support/test-gateway";

const gateway = useTestGateway();
const holder = globalThis as unknown as { gatewayConfig?: Config };

/** What a real SMTP server received: one entry a message, its envelope and raw text. */
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
let smtpPort = 0;
let merchant: OnboardedMerchant;
let owner: { id: string; email: string };
let configBefore: Config;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  merchant = await createMerchant();
  owner = await createConsoleUser([{ merchant, role: "owner" }]);
  configBefore = getConfig();
});

afterAll(async () => {
  holder.gatewayConfig = configBefore;
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

function useSmtp(url: string | undefined) {
  holder.gatewayConfig = {
    ...configBefore,
    SMTP_URL: url,
    SMTP_FROM: url ? "Atlas payments <console@gateway.example>" : undefined,
  };
}

async function invite(email: string) {
  const session = await consoleSessionOf(owner.id);
  const response = await postForm(
    gateway.baseUrl,
    "/en/console/actions/invite",
    { email, role: "support", formToken: session.formToken },
    { cookie: session.cookie },
  );
  expect(response.status).toBe(303);
  const flash = await takeFlash(await getDb(), session.sessionId);
  if (flash?.kind !== "invitation_link") throw new Error(`expected the invitation link, got ${JSON.stringify(flash)}`);
  return flash;
}

/** The invitation token, from a link: it must open the invitation. */
async function opens(url: string): Promise<boolean> {
  return (await findOpenInvitation(await getDb(), url.split("/").pop()!)) !== null;
}

describe("invitation email (contract 13: the Team page emails the link when SMTP_URL is set)", () => {
  it("emails the working link to the invitee, and the page says it was emailed", async () => {
    useSmtp(`smtp://127.0.0.1:${smtpPort}`);
    const email = uniqueEmail("mailed");
    const flash = await invite(email);
    expect(flash.emailed).toBe(true);
    const message = received.find((mail) => mail.to.includes(email));
    expect(message).toBeDefined();
    expect(message!.raw).toContain(`Subject: Invitation to ${merchant.name}'s console`);
    expect(message!.raw).toContain("console@gateway.example");
    expect(message!.raw.replace(/=\r?\n/g, "")).toContain(flash.url);
    expect(await opens(flash.url)).toBe(true);
  });

  it("sends nothing without SMTP_URL: the link shown on the page is the only copy", async () => {
    useSmtp(undefined);
    const email = uniqueEmail("unmailed");
    const flash = await invite(email);
    expect(flash.emailed).toBe(false);
    expect(received.some((mail) => mail.to.includes(email))).toBe(false);
    expect(await opens(flash.url)).toBe(true);
  });

  it("still invites when the SMTP server cannot be reached, and says the link was not emailed", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    useSmtp(`smtp://127.0.0.1:${deadPort}`);
    const flash = await invite(uniqueEmail("unreachable"));
    expect(flash.emailed).toBe(false);
    expect(await opens(flash.url)).toBe(true);
  });
});
