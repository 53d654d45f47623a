import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { getConfig } from "../config";
import { classifyAddress } from "./classify-address";

/** Where webhooks may go: the sandbox reaches anything, production only public https endpoints (no SSRF). */
export interface WebhookPolicy {
  requireHttps: boolean;
  allowPrivateAddresses: boolean;
}

export const sandboxWebhookPolicy: WebhookPolicy = { requireHttps: false, allowPrivateAddresses: true };
export const productionWebhookPolicy: WebhookPolicy = { requireHttps: true, allowPrivateAddresses: false };

export function webhookPolicyFor(config: { isSandbox: boolean } = getConfig()): WebhookPolicy {
  return config.isSandbox ? sandboxWebhookPolicy : productionWebhookPolicy;
}

/** A URL or address the policy forbids; its message names why and is safe to store and show. */
export class WebhookRefusedError extends Error {
  readonly code = "WEBHOOK_REFUSED";
  constructor(message: string) {
    super(message);
    this.name = "WebhookRefusedError";
  }
}

/**
 * The checks that need no DNS: scheme, and the address itself when the host is an IP literal
 * (Node skips `lookup` for those, so the guarded lookup below would never see them).
 */
export function assertUrlAllowed(url: URL, policy: WebhookPolicy): void {
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new WebhookRefusedError(`refused: ${url.protocol} is not an http(s) scheme`);
  }
  if (policy.requireHttps && url.protocol !== "https:") {
    throw new WebhookRefusedError("refused: the webhook URL must use https");
  }
  if (policy.allowPrivateAddresses) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) assertAddressAllowed(host, policy);
}

export function assertAddressAllowed(address: string, policy: WebhookPolicy): void {
  if (policy.allowPrivateAddresses) return;
  const kind = classifyAddress(address);
  if (kind !== "public") throw new WebhookRefusedError(`refused: ${address} is a ${kind.replace("_", "-")} address`);
}

/**
 * A `lookup` for node:http(s) that refuses the connection when any address the name resolves
 * to is not public. The check runs on the very addresses the socket then connects to, so a
 * DNS answer that changes between a check and the request (rebinding) cannot slip through.
 */
export function guardedLookup(policy: WebhookPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      try {
        if (addresses.length === 0) throw new WebhookRefusedError(`refused: ${hostname} has no address`);
        for (const entry of addresses) assertAddressAllowed(entry.address, policy);
      } catch (refused) {
        return callback(refused as NodeJS.ErrnoException, "", 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * Onboarding's check (production): https, and every address the host resolves to right now
 * is public. Delivery checks again on each connection, since DNS can change later.
 */
export async function assertWebhookUrlAllowed(rawUrl: string, policy: WebhookPolicy): Promise<void> {
  const url = new URL(rawUrl);
  assertUrlAllowed(url, policy);
  if (policy.allowPrivateAddresses) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return;
  const { lookup } = await import("node:dns/promises");
  let addresses: LookupAddress[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    throw new WebhookRefusedError(`refused: ${host} does not resolve`);
  }
  if (addresses.length === 0) throw new WebhookRefusedError(`refused: ${host} has no address`);
  for (const entry of addresses) assertAddressAllowed(entry.address, policy);
}
