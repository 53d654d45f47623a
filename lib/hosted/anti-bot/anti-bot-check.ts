import { randomInt } from "node:crypto";
import { createChallenge, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { getConfig } from "../../config";
import { getGatewayKey } from "../../crypto/gateway-key";
import { constantTimeEqual, hmacHex, randomToken } from "../../crypto/secrets";
import type { Db } from "../../db/client";
import { rateLimitKeys, rateLimitPolicies } from "../../rate-limit/policies";
import { consumeRateLimits } from "../../rate-limit/store";
import { codeImage } from "./code-image";

/** The form fields the check posts: ALTCHA's solution (script), or the code typed from the image (no script). */
export const ANTI_BOT_FIELDS = { solution: "altcha", codeToken: "antiBotToken", code: "antiBotCode" } as const;

/** How long a challenge may be answered; a solved one is spent at once (replay refused). */
export const ANTI_BOT_LIFETIME_SECONDS = 600;

/** The sandbox's code that always passes the no-script check (contract 15). */
export const SANDBOX_ANTI_BOT_CODE = "123456";

/**
 * What a form renders: ALTCHA's challenge for the island to solve, and the code image with its
 * signed token for a buyer without script.
 */
export interface AntiBotChallenge {
  challenge: Challenge;
  code: { image: string; token: string };
}

export type AntiBotResult = { passed: true } | { passed: false; reason: "missing" | "failed" | "expired" | "replayed" };

// Both secrets derive from the gateway key: nothing to configure, the same on every instance.
async function secrets(db: Db) {
  const key = await getGatewayKey(db);
  return {
    signature: hmacHex(key, "anti-bot", "altcha-signature"),
    keySignature: hmacHex(key, "anti-bot", "altcha-key-signature"),
    code: key,
  };
}

/**
 * A fresh check for one form: an ALTCHA proof of work (SHA-256, deterministic mode: the buyer's
 * browser searches a counter of 5,000 to 10,000 hashes, the server verifies with one), and a
 * six-digit code shown as an image, whose token is an HMAC of the code (never the code itself).
 */
export async function createAntiBotChallenge(
  db: Db,
  options: { nowMs?: number; /** Tests only: the code to draw (random otherwise). */ code?: string } = {},
): Promise<AntiBotChallenge> {
  const nowMs = options.nowMs ?? Date.now();
  const { signature, keySignature, code: codeKey } = await secrets(db);
  const expiresAt = Math.floor(nowMs / 1000) + ANTI_BOT_LIFETIME_SECONDS;
  const challenge = await createChallenge({
    algorithm: "SHA-256",
    cost: 1,
    counter: randomInt(5_000, 10_000),
    deriveKey,
    expiresAt,
    hmacSignatureSecret: signature,
    hmacKeySignatureSecret: keySignature,
  });
  const code = options.code ?? String(randomInt(0, 1_000_000)).padStart(6, "0");
  const nonce = randomToken(16);
  const token = `${nonce}.${expiresAt}.${hmacHex(codeKey, "anti-bot-code", `${nonce}.${expiresAt}.${code}`)}`;
  return { challenge, code: { image: codeImage(code), token } };
}

/**
 * THE anti-bot verification of a posted form: ALTCHA's solution when the page's script solved
 * it, else the typed code against its token (in the sandbox, 123456 always passes). Either must
 * be unexpired, genuine, and unused: a challenge passes once (spent in the rate-limit store,
 * shared by every instance, for its lifetime). `fields` is the posted form (read-form-body.ts's
 * FormBody, named by its shape: lib/hosted/anti-bot sits below the files of lib/hosted).
 */
export async function verifyAntiBot(
  db: Db,
  fields: Readonly<Record<string, string>>,
  nowMs = Date.now(),
): Promise<AntiBotResult> {
  const { signature, keySignature, code: codeKey } = await secrets(db);
  const nowSeconds = Math.floor(nowMs / 1000);
  const payload = parseSolution(fields[ANTI_BOT_FIELDS.solution]);
  if (payload) {
    const expiresAt = payload.challenge.parameters.expiresAt;
    if (typeof expiresAt !== "number" || expiresAt < nowSeconds) return { passed: false, reason: "expired" };
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: signature,
      hmacKeySignatureSecret: keySignature,
    });
    if (result.expired) return { passed: false, reason: "expired" };
    if (!result.verified) return { passed: false, reason: "failed" };
    return spendOnce(db, `altcha:${payload.challenge.parameters.nonce}`, nowMs);
  }

  const token = fields[ANTI_BOT_FIELDS.codeToken] ?? "";
  const typed = (fields[ANTI_BOT_FIELDS.code] ?? "").replace(/\s/g, "");
  if (!typed) return { passed: false, reason: "missing" };
  const [nonce, expires, mac] = token.split(".");
  if (!nonce || !expires || !mac || !/^\d+$/.test(expires)) {
    return getConfig().isSandbox && typed === SANDBOX_ANTI_BOT_CODE
      ? { passed: true }
      : { passed: false, reason: "failed" };
  }
  if (Number(expires) < nowSeconds) return { passed: false, reason: "expired" };
  const genuine = constantTimeEqual(mac, hmacHex(codeKey, "anti-bot-code", `${nonce}.${expires}.${typed}`));
  if (!genuine && !(getConfig().isSandbox && typed === SANDBOX_ANTI_BOT_CODE))
    return { passed: false, reason: "failed" };
  return spendOnce(db, `code:${nonce}`, nowMs);
}

/** The first use of a challenge passes; any later one within its lifetime is a replay. */
async function spendOnce(db: Db, challengeId: string, nowMs: number): Promise<AntiBotResult> {
  const [decision] =
    (await consumeRateLimits(
      db,
      [{ policy: rateLimitPolicies.antiBotSolution, key: rateLimitKeys.antiBotSolution(challengeId) }],
      nowMs,
    )) ?? [];
  // No decision: the Redis store is down; the check itself passed, and the limits' rule is to admit then.
  return decision && !decision.allowed ? { passed: false, reason: "replayed" } : { passed: true };
}

/** ALTCHA's form value: base64 of `{ challenge, solution }` (as its widget posts it). */
function parseSolution(value: string | undefined): { challenge: Challenge; solution: Solution } | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64").toString("utf8")) as {
      challenge?: Challenge;
      solution?: Solution;
    };
    if (!parsed?.challenge?.parameters || !parsed.solution || typeof parsed.solution.counter !== "number") return null;
    return { challenge: parsed.challenge, solution: parsed.solution };
  } catch {
    return null;
  }
}
