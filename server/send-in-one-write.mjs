// An API response in one socket write, and compressed only when it is worth it.
//
// Next.js sends a route handler's Response as three writes: `flushHeaders()` puts the head on
// the socket alone, the body follows in a second write, and `end()` adds the chunked terminator
// in a third (Next.js drops any Content-Length a route sets). On loopback TCP the kernel's
// delivery is billed to the writer, per write: under load these writes were about a tenth of a
// server's busy time. Here the head waits for the body, and a body of up to MAX_HELD bytes waits
// for `end()`, which goes down in one call: Node sends head and body as one write, with the
// body's Content-Length instead of chunked framing.
//
// Installed above the `compression` middleware, so it sees that whole body in its `end()`. It
// skips bodies under its threshold (1 KB) only when it knows their length, which a streamed
// route handler's answer never told it: every API answer went through gzip for a client that
// accepts it, as every merchant's HTTP client does. A check's 230 bytes came out at 190, for a
// fifth more CPU per check. Bodies from 1 KB on are compressed as before.
//
// The API lane (lib/http/api-lane.ts) writes its answers this way itself; this serves the /api
// answers Next.js still writes (/api/health, /api/metrics, the odd paths the lane hands over:
// a malformed escape, an unusual Host), which therefore go out as the lane's do.
//
// Plain JavaScript: server/door.mjs imports it; tests/unit covers it.

/** Beyond this a body streams as before; the API's JSON answers are a few KB at most. */
export const MAX_HELD = 64 * 1024;

/** @param {import("node:http").ServerResponse} response */
export function sendInOneWrite(response) {
  const write = response.write;
  const end = response.end;
  /** @type {Uint8Array[] | null} null once the body streams (too large, or a write with a callback) */
  let held = [];
  let heldBytes = 0;

  /** Sends what is held and streams from now on; answers as `write` does. */
  const release = (self) => {
    const pending = held;
    held = null;
    return pending && pending.length > 0 ? write.call(self, pending.length === 1 ? pending[0] : Buffer.concat(pending)) : true;
  };

  // The head is fixed when the body goes down, so that what decides on it below (compression)
  // knows the body; a body too large to hold is streamed, and the head then goes before it.
  const flushHeaders = response.flushHeaders;
  response.flushHeaders = function heldFlushHeaders() {
    if (held === null) flushHeaders.call(this);
  };

  // @ts-expect-error the overloads of write are all handled here
  response.write = function heldWrite(chunk, encoding, callback) {
    if (held === null || typeof encoding === "function" || callback !== undefined || chunk == null) {
      release(this);
      return write.call(this, chunk, encoding, callback);
    }
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk;
    held.push(bytes);
    heldBytes += bytes.length;
    return heldBytes > MAX_HELD ? release(this) : true;
  };

  // @ts-expect-error the overloads of end are all handled here
  response.end = function heldEnd(chunk, encoding, callback) {
    if (typeof chunk === "function") [chunk, encoding, callback] = [undefined, undefined, chunk];
    else if (typeof encoding === "function") [encoding, callback] = [undefined, encoding];
    const pending = held;
    held = null;
    if (!pending || pending.length === 0) return end.call(this, chunk, encoding, callback);
    if (chunk != null) pending.push(typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk);
    const body = pending.length === 1 ? pending[0] : Buffer.concat(pending);
    // The whole body is known before the head goes: its length, instead of chunked framing
    // (a compressed answer drops it again, and streams chunked).
    if (!this.headersSent && !this.hasHeader("content-length")) this.setHeader("content-length", body.length);
    return end.call(this, body, undefined, callback);
  };
}
