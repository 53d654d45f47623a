import { Webhook } from "standardwebhooks";

/**
 * Standard Webhooks headers for one attempt: the id stays the notification's on every retry,
 * the timestamp is the attempt's own (receivers reject stale ones), and the signature is the
 * library's `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
 */
export function signWebhook(options: { signer: Webhook; id: string; body: string; now: Date }): Record<string, string> {
  const seconds = Math.floor(options.now.getTime() / 1000);
  return {
    "webhook-id": options.id,
    "webhook-timestamp": String(seconds),
    "webhook-signature": options.signer.sign(options.id, new Date(seconds * 1000), options.body),
  };
}

/** The signer for a service's `whsec_...` secret (decoding the key once per secret). */
export function webhookSigner(secret: string): Webhook {
  return new Webhook(secret);
}
