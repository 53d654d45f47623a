import { randomBytes } from "node:crypto";
import { ulid } from "ulid";
import { PUBLISHABLE_KEY_PREFIX } from "../crypto/credential-prefixes";
import { randomToken } from "../crypto/secrets";

export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return slug || "merchant";
}

export function withRandomSuffix(code: string): string {
  return `${code}-${randomBytes(3).toString("hex")}`;
}

export const newClientId = (tenant: string, service: string) => `${tenant}.${service}.${ulid()}`;
export const newClientSecret = () => randomToken(32);
export const newPublishableKey = () => `${PUBLISHABLE_KEY_PREFIX}${randomToken(24)}`;
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
export const newSandboxCardProviderKey = () => `pk_sandbox_${randomToken(24)}`;
