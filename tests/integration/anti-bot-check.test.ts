import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { afterEach, describe, expect, it } from "vitest";
import { getConfig, type Config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import {
  ANTI_BOT_FIELDS,
  ANTI_BOT_LIFETIME_SECONDS,
  createAntiBotChallenge,
  verifyAntiBot,
  type AntiBotChallenge,
} from "@/lib/hosted/anti-bot/anti-bot-check";
import { useTestGateway } from "../support/test-gateway";

useTestGateway();
const holder = globalThis as unknown as { gatewayConfig?: Config };
const configBefore = getConfig();
afterEach(() => {
  holder.gatewayConfig = configBefore;
});

/** What the anti-bot island posts once it solved the page's challenge. */
async function solvedFields(
  check: AntiBotChallenge,
  tamper: (challenge: AntiBotChallenge["challenge"]) => AntiBotChallenge["challenge"] = (challenge) => challenge,
) {
  const solution = await solveChallenge({ challenge: check.challenge, deriveKey });
  if (!solution) throw new Error("not solved");
  const posted = { challenge: tamper(structuredClone(check.challenge)), solution };
  return {
    [ANTI_BOT_FIELDS.solution]: Buffer.from(JSON.stringify(posted)).toString("base64"),
    [ANTI_BOT_FIELDS.codeToken]: check.code.token,
  };
}

describe("the anti-bot check (contract 15: no third-party code, passable without script)", () => {
  it("passes a solved proof of work once: the same solution posted again is a replay", async () => {
    const db = await getDb();
    const fields = await solvedFields(await createAntiBotChallenge(db));
    expect(await verifyAntiBot(db, fields)).toEqual({ passed: true });
    expect(await verifyAntiBot(db, fields)).toEqual({ passed: false, reason: "replayed" });
  });

  it("refuses a solution whose challenge was altered, or that came too late", async () => {
    const db = await getDb();
    const altered = await solvedFields(await createAntiBotChallenge(db), (challenge) => ({
      ...challenge,
      parameters: { ...challenge.parameters, keyPrefix: "0" },
    }));
    expect(await verifyAntiBot(db, altered)).toEqual({ passed: false, reason: "failed" });
    const late = await solvedFields(await createAntiBotChallenge(db));
    expect(await verifyAntiBot(db, late, Date.now() + (ANTI_BOT_LIFETIME_SECONDS + 1) * 1000)).toEqual({
      passed: false,
      reason: "expired",
    });
  });

  it("passes the code of the image without script, once, and refuses a wrong or expired one", async () => {
    const db = await getDb();
    const check = await createAntiBotChallenge(db, { code: "482913" });
    expect(check.code.image).toMatch(/^data:image\/svg\+xml;base64,/);
    // The page holds no text of the code: neither its image nor its token.
    expect(Buffer.from(check.code.image.split(",")[1]!, "base64").toString()).not.toContain("482913");
    expect(check.code.token).not.toContain("482913");
    const typed = (code: string) => ({ [ANTI_BOT_FIELDS.codeToken]: check.code.token, [ANTI_BOT_FIELDS.code]: code });
    expect(await verifyAntiBot(db, typed("482914"))).toEqual({ passed: false, reason: "failed" });
    expect(await verifyAntiBot(db, typed(""))).toEqual({ passed: false, reason: "missing" });
    expect(await verifyAntiBot(db, typed("482913"), Date.now() + (ANTI_BOT_LIFETIME_SECONDS + 1) * 1000)).toEqual({
      passed: false,
      reason: "expired",
    });
    expect(await verifyAntiBot(db, typed("482 913"))).toEqual({ passed: true });
    expect(await verifyAntiBot(db, typed("482913"))).toEqual({ passed: false, reason: "replayed" });
  });

  it("passes 123456 in the sandbox, and only the image's code in production", async () => {
    const db = await getDb();
    const sandboxCheck = await createAntiBotChallenge(db, { code: "111111" });
    expect(
      await verifyAntiBot(db, {
        [ANTI_BOT_FIELDS.codeToken]: sandboxCheck.code.token,
        [ANTI_BOT_FIELDS.code]: "123456",
      }),
    ).toEqual({ passed: true });
    holder.gatewayConfig = { ...configBefore, APP_ENV: "production", isSandbox: false } as Config;
    const productionCheck = await createAntiBotChallenge(db, { code: "222222" });
    expect(
      await verifyAntiBot(db, {
        [ANTI_BOT_FIELDS.codeToken]: productionCheck.code.token,
        [ANTI_BOT_FIELDS.code]: "123456",
      }),
    ).toEqual({ passed: false, reason: "failed" });
    expect(await verifyAntiBot(db, { [ANTI_BOT_FIELDS.code]: "123456" })).toEqual({ passed: false, reason: "failed" });
  });
});
