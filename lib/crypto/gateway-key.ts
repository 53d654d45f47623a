import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import { sandboxGatewaySecret } from "../db/database-seal";

/**
 * The key behind client secrets, page tokens and webhook-secret encryption. Production
 * takes it from GATEWAY_SECRET; the sandbox generates one on first start and shares it
 * through the database so every instance derives the same secrets.
 */
export async function loadGatewayKey(db: Db): Promise<Buffer> {
  return Buffer.from(getConfig().GATEWAY_SECRET ?? (await sandboxGatewaySecret(db)), "base64");
}

const globalForKey = globalThis as unknown as { gatewayKey?: Promise<Buffer> };

export function getGatewayKey(db: Db): Promise<Buffer> {
  globalForKey.gatewayKey ??= loadGatewayKey(db).catch((error) => {
    globalForKey.gatewayKey = undefined;
    throw error;
  });
  return globalForKey.gatewayKey;
}

/**
 * A process that is not a gateway (`npm run card-simulator`, with no GATEWAY_SECRET) names the key
 * it derives and signs with, from its own books: it has no gateway tables to generate one in.
 */
export function useGatewayKey(key: Buffer): void {
  globalForKey.gatewayKey = Promise.resolve(key);
}

export function encryptWithKey(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.subarray(0, 32), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}

export function decryptWithKey(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !body) throw new Error("malformed sealed value");
  const decipher = createDecipheriv("aes-256-gcm", key.subarray(0, 32), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
}
