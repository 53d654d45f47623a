import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig, type Config } from "@/lib/config";
import { takeFlash } from "@/lib/console/web/console-flash";
import { resolveConsoleSession } from "@/lib/console/access/console-sessions";
import {
  createResetLinkForEmail,
  findOpenReset,
  requestPasswordReset,
  resetPassword,
  RESET_LINK_LIFETIME_MS,
} from "@/lib/console/access/password-resets";
import { signIn } from "@/lib/console/access/sign-in";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog, consolePasswordResets } from "@/lib/db/schema";
import { CLI_ACTOR } from "@/lib/console/merchants/invite-to-merchant";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import {
  consoleSessionOf,
  createConsoleUser,
  fixedClock,
  postForm,
  serviceIdOf,
  TEST_PASSWORD,
  uniqueEmail,
} from "../../support/console";
import { createMerchant } from "../../support/factories";
import { runScript } from "../../support/run-script";
import { useTestGateway } from "../../support/test-gateway";

const gateway = useTestGateway();
const holder = globalThis as unknown as { gatewayConfig?: Config };

/** What a real SMTP server received: one entry a message. */
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
let smtpUrl = "";
let configBefore: Config;
let merchant: OnboardedMerchant;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  configBefore = getConfig();
  merchant = await createMerchant();
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

/** A message's headers and its text decoded (base64, or quoted-printable), as a mail reader shows them. */
function decoded(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const [headers, body] = [raw.slice(0, split), raw.slice(split).trim()];
  if (/Content-Transfer-Encoding: base64/i.test(headers))
    return `${headers}\n\n${Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")}`;
  const unwrapped = body.replace(/=\r?\n/g, "");
  return `${headers}\n\n${Buffer.from(
    unwrapped.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  ).toString("utf8")}`;
}

async function mailTo(email: string, timeoutMs = 5_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const message = received.find((mail) => mail.to.includes(email));
    if (message) return decoded(message.raw);
    if (Date.now() > deadline) throw new Error(`no email to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const linkIn = (text: string) => /https?:\/\/\S+\/console\/reset-password\/[A-Za-z0-9_-]{43}/.exec(text)?.[0];
const tokenOf = (url: string) => url.split("/").at(-1)!;

async function auditOf(
  action: "password_reset" | "password_reset_requested" | "password_reset_link_created",
  target: string,
) {
  const db = await getDb();
  return db
    .select()
    .from(consoleAuditLog)
    .where(and(eq(consoleAuditLog.action, action), eq(consoleAuditLog.target, target)));
}

describe('"Forgot password?" (contract 13: account recovery)', () => {
  it("emails a working link to an account's email; an unknown email gets the same answer, no email", async () => {
    useSmtp(smtpUrl);
    const user = await createConsoleUser([{ merchant, role: "support" }]);
    const unknown = uniqueEmail("nobody");
    const known = await postForm(gateway.baseUrl, "/en/console/actions/forgot-password", {
      email: user.email.toUpperCase(),
    });
    const notKnown = await postForm(gateway.baseUrl, "/en/console/actions/forgot-password", { email: unknown });
    expect(known.status).toBe(303);
    expect(notKnown.status).toBe(303);
    expect(known.headers.get("location")).toBe("/en/console/forgot-password?sent=1");
    expect(notKnown.headers.get("location")).toBe(known.headers.get("location"));
    expect(known.headers.get("set-cookie")).toBeNull();

    const text = await mailTo(user.email);
    expect(text).toContain("Subject: Choose a new console password");
    expect(text).toContain("within one hour");
    expect(text).toContain("dans l’heure");
    expect(text).toContain("خلال ساعة");
    const link = linkIn(text)!;
    expect(link).toMatch(/^https?:\/\/[^/]+\/console\/reset-password\/[A-Za-z0-9_-]{43}$/);
    expect(await findOpenReset(await getDb(), tokenOf(link))).toMatchObject({ email: user.email });
    // Only the token's hash is stored.
    const rows = await (
      await getDb()
    )
      .select()
      .from(consolePasswordResets)
      .where(eq(consolePasswordResets.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(tokenOf(link));
    expect(JSON.stringify(rows)).not.toContain(tokenOf(link));
    expect(await auditOf("password_reset_requested", user.email)).toHaveLength(1);

    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.some((mail) => mail.to.includes(unknown))).toBe(false);
    expect(await auditOf("password_reset_requested", unknown)).toHaveLength(0);
  });

  it("without SMTP_URL sends nothing and makes no link, for a known email as for an unknown one", async () => {
    useSmtp(undefined);
    const user = await createConsoleUser([{ merchant, role: "viewer" }]);
    const known = await postForm(gateway.baseUrl, "/fr/console/actions/forgot-password", { email: user.email });
    const notKnown = await postForm(gateway.baseUrl, "/fr/console/actions/forgot-password", {
      email: uniqueEmail("nobody"),
    });
    expect(known.headers.get("location")).toBe("/fr/console/forgot-password");
    expect(notKnown.headers.get("location")).toBe(known.headers.get("location"));
    const rows = await (
      await getDb()
    )
      .select()
      .from(consolePasswordResets)
      .where(eq(consolePasswordResets.userId, user.id));
    expect(rows).toHaveLength(0);
    expect(received.some((mail) => mail.to.includes(user.email))).toBe(false);
  });

  it("refuses an email that is not one beside its field", async () => {
    useSmtp(smtpUrl);
    const response = await postForm(gateway.baseUrl, "/ar/console/actions/forgot-password", { email: "not an email" });
    expect(response.headers.get("location")).toBe("/ar/console/forgot-password?error=invalidEmail&email=not+an+email");
  });

  it("is limited as sign-in: the 11th request in 15 minutes waits 15 minutes, account or not", async () => {
    useSmtp(smtpUrl);
    const db = await getDb();
    const clock = fixedClock(new Date("2031-03-01T08:00:00Z"));
    const user = await createConsoleUser();
    for (const email of [user.email, uniqueEmail("nobody")]) {
      for (let i = 0; i < 10; i += 1) {
        expect((await requestPasswordReset(db, { email, ip: null, clock })).outcome).toBe("accepted");
        clock.advance(1000);
      }
      const refused = await requestPasswordReset(db, { email, ip: null, clock });
      expect(refused).toEqual({ outcome: "locked", until: new Date(clock.now().getTime() - 1000 + 15 * 60_000) });
      clock.advance(15 * 60_000);
      expect((await requestPasswordReset(db, { email, ip: null, clock })).outcome).toBe("accepted");
    }
    // Over HTTP, the refusal says to wait.
    const email = uniqueEmail("burst");
    for (let i = 0; i < 10; i += 1) await postForm(gateway.baseUrl, "/en/console/actions/forgot-password", { email });
    const eleventh = await postForm(gateway.baseUrl, "/en/console/actions/forgot-password", { email });
    expect(eleventh.headers.get("location")).toBe("/en/console/forgot-password?error=locked");
  });
});

describe("the reset link's page (New password, Set password)", () => {
  async function linkFor(email: string, clock?: ReturnType<typeof fixedClock>) {
    const reset = await createResetLinkForEmail(await getDb(), { email, actor: CLI_ACTOR, clock });
    return tokenOf(reset!.resetUrl);
  }

  it("sets the password once, ends every session of the user, and is in the audit log", async () => {
    const user = await createConsoleUser([{ merchant, role: "owner" }]);
    const first = await consoleSessionOf(user.id);
    const second = await consoleSessionOf(user.id);
    const token = await linkFor(user.email);
    const set = await postForm(
      gateway.baseUrl,
      "/en/console/actions/reset-password",
      { token, password: "a brand new long password" },
      { "x-forwarded-for": "198.51.100.7" },
    );
    expect(set.status).toBe(303);
    expect(set.headers.get("location")).toBe("/en/console/sign-in?notice=password_reset");

    const db = await getDb();
    expect(await resolveConsoleSession(db, first.token)).toBeNull();
    expect(await resolveConsoleSession(db, second.token)).toBeNull();
    expect((await signIn(db, { email: user.email, password: TEST_PASSWORD, ip: null })).outcome).toBe("refused");
    expect((await signIn(db, { email: user.email, password: "a brand new long password", ip: null })).outcome).toBe(
      "signed_in",
    );

    const again = await postForm(gateway.baseUrl, "/en/console/actions/reset-password", {
      token,
      password: "an attacker's password!!",
    });
    expect(again.headers.get("location")).toBe(`/en/console/reset-password/${token}`);
    expect(await findOpenReset(db, token)).toBeNull();
    expect((await signIn(db, { email: user.email, password: "an attacker's password!!", ip: null })).outcome).toBe(
      "refused",
    );

    const [entry, ...more] = await auditOf("password_reset", user.email);
    expect(more).toHaveLength(0);
    expect(entry).toMatchObject({ userId: user.id, userEmail: user.email, serviceId: null });
    expect(await auditOf("password_reset_link_created", user.email)).toEqual([
      expect.objectContaining({ userEmail: "npm run merchant", userId: null }),
    ]);
  });

  it("works for an hour and no longer", async () => {
    const db = await getDb();
    const clock = fixedClock(new Date("2031-04-01T09:00:00Z"));
    const user = await createConsoleUser();
    const token = await linkFor(user.email, clock);
    clock.advance(RESET_LINK_LIFETIME_MS);
    expect(await findOpenReset(db, token, clock)).toBeNull();
    expect(await resetPassword(db, { token, newPassword: "too late for this link", ip: null, clock })).toEqual({
      outcome: "not_open",
    });

    const timely = await linkFor(user.email, clock);
    clock.advance(RESET_LINK_LIFETIME_MS - 1000);
    expect(await resetPassword(db, { token: timely, newPassword: "just in time password", ip: null, clock })).toEqual({
      outcome: "reset",
    });
  });

  it("keeps the rules of every password (12 characters), beside the field, and the link stays usable", async () => {
    const user = await createConsoleUser();
    const token = await linkFor(user.email);
    const short = await postForm(gateway.baseUrl, "/fr/console/actions/reset-password", { token, password: "short" });
    expect(short.headers.get("location")).toBe(`/fr/console/reset-password/${token}?error=too_short`);
    expect(await findOpenReset(await getDb(), token)).not.toBeNull();
  });

  it("a used link closes the user's other open links", async () => {
    const db = await getDb();
    const user = await createConsoleUser();
    const older = await linkFor(user.email);
    const newer = await linkFor(user.email);
    expect(await resetPassword(db, { token: newer, newPassword: "the password I chose", ip: null })).toEqual({
      outcome: "reset",
    });
    expect(await findOpenReset(db, older)).toBeNull();
  });
});

describe("an owner's reset link on the Team page", () => {
  it("is shown once to the owner, for a member of its merchant, and audited", async () => {
    const owner = await createConsoleUser([{ merchant, role: "owner" }]);
    const member = await createConsoleUser([{ merchant, role: "developer" }]);
    const session = await consoleSessionOf(owner.id);
    const response = await postForm(
      gateway.baseUrl,
      "/en/console/actions/reset-member-password",
      { member: member.id, formToken: session.formToken },
      { cookie: session.cookie },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/en/console/team");
    const db = await getDb();
    const flash = await takeFlash(db, session.sessionId);
    if (flash?.kind !== "reset_link") throw new Error(`expected the reset link, got ${JSON.stringify(flash)}`);
    expect(flash.email).toBe(member.email);
    expect(await findOpenReset(db, tokenOf(flash.url))).toMatchObject({ userId: member.id });
    expect(await takeFlash(db, session.sessionId)).toBeNull();
    expect(await auditOf("password_reset_link_created", member.email)).toEqual([
      expect.objectContaining({ userId: owner.id, serviceId: await serviceIdOf(merchant) }),
    ]);
  });

  it("is refused for a person also in a merchant the owner does not own; others' users are not found", async () => {
    const other = await createMerchant();
    const owner = await createConsoleUser([{ merchant, role: "owner" }]);
    const shared = await createConsoleUser([
      { merchant, role: "support" },
      { merchant: other, role: "owner" },
    ]);
    const stranger = await createConsoleUser([{ merchant: other, role: "viewer" }]);
    const session = await consoleSessionOf(owner.id);
    const refused = await postForm(
      gateway.baseUrl,
      "/en/console/actions/reset-member-password",
      { member: shared.id, formToken: session.formToken },
      { cookie: session.cookie },
    );
    expect(refused.headers.get("location")).toBe("/en/console/team");
    expect(await takeFlash(await getDb(), session.sessionId)).toEqual({
      kind: "error",
      form: "team",
      key: "memberOfOtherMerchants",
    });
    const notFound = await postForm(
      gateway.baseUrl,
      "/en/console/actions/reset-member-password",
      { member: stranger.id, formToken: session.formToken },
      { cookie: session.cookie },
    );
    expect(notFound.status).toBe(404);
  });

  it("is for owners only", async () => {
    const support = await createConsoleUser([{ merchant, role: "support" }]);
    const member = await createConsoleUser([{ merchant, role: "viewer" }]);
    const session = await consoleSessionOf(support.id);
    const response = await postForm(
      gateway.baseUrl,
      "/en/console/actions/reset-member-password",
      { member: member.id, formToken: session.formToken },
      { cookie: session.cookie },
    );
    expect(response.status).toBe(403);
  });
});

describe("npm run merchant (account recovery and invitation emails)", () => {
  it("reset-password --email --json prints { resetUrl }, a link that sets the password", async () => {
    const user = await createConsoleUser([{ merchant, role: "viewer" }]);
    const result = await runScript("scripts/merchant.ts", ["reset-password", "--email", user.email, "--json"]);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(Object.keys(printed)).toEqual(["resetUrl"]);
    expect(printed.resetUrl).toMatch(/^https?:\/\/[^/]+\/console\/reset-password\/[A-Za-z0-9_-]{43}$/);
    expect(
      await resetPassword(await getDb(), {
        token: tokenOf(printed.resetUrl),
        newPassword: "set from the operator's link",
        ip: null,
      }),
    ).toEqual({ outcome: "reset" });
  });

  it("reset-password names an unknown email and exits non-zero", async () => {
    const email = uniqueEmail("nobody");
    const result = await runScript("scripts/merchant.ts", ["reset-password", "--email", email, "--json"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`No console user has the email ${email}`);
  });

  it("invite and create --owner-email email the invitation given SMTP_URL, naming the role in en, fr, ar", async () => {
    const invitee = uniqueEmail("cli-support");
    const invited = await runScript(
      "scripts/merchant.ts",
      ["invite", "--client-id", merchant.clientId, "--email", invitee, "--role", "support", "--json"],
      { SMTP_URL: smtpUrl },
    );
    expect(invited.code).toBe(0);
    expect(Object.keys(JSON.parse(invited.stdout))).toEqual(["inviteUrl"]);
    expect(invited.stderr).toContain(`Invitation emailed to ${invitee}.`);
    const supportMail = await mailTo(invitee);
    expect(supportMail).toContain(`Subject: Invitation to ${merchant.name}'s console`);
    expect(supportMail).toContain("with the role Support.");
    expect(supportMail).toContain("avec le rôle Support.");
    expect(supportMail).toContain("بدور دعم.");
    expect(supportMail.replace(/\r?\n/g, "")).toContain(JSON.parse(invited.stdout).inviteUrl);

    const owner = uniqueEmail("cli-owner");
    const created = await runScript(
      "scripts/merchant.ts",
      ["create", "--name", `Mailed Shop ${process.pid}`, "--country", "MAR", "--owner-email", owner, "--json"],
      {
        SMTP_URL: smtpUrl,
      },
    );
    expect(created.code).toBe(0);
    const ownerMail = await mailTo(owner);
    expect(ownerMail).toContain("with the role Owner.");
    expect(ownerMail).toContain("avec le rôle Propriétaire.");
    expect(ownerMail).toContain("بدور مالك.");
    expect(ownerMail.replace(/\r?\n/g, "")).toContain(JSON.parse(created.stdout).ownerInviteUrl);
  });

  it("invite without SMTP_URL emails nothing and says nothing of email", async () => {
    const invitee = uniqueEmail("cli-unmailed");
    const invited = await runScript(
      "scripts/merchant.ts",
      ["invite", "--client-id", merchant.clientId, "--email", invitee, "--role", "viewer", "--json"],
      { SMTP_URL: undefined },
    );
    expect(invited.code).toBe(0);
    expect(invited.stderr).toBe("");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.some((mail) => mail.to.includes(invitee))).toBe(false);
  });
});
