// The TCP peer's address for the route handlers, which never see the socket: the gateway's own
// HTTP servers (server/serve.mjs, server/dev.mjs, the tests' in-process server) write it into
// the request's headers before anything reads them, replacing any copy the client sent, and mark
// the process, so lib/http/client-address.ts believes the header here and nowhere else (a bare
// `next start` leaves it a client's word). Plain JavaScript, like the servers that load it.

/** lib/http/client-address.ts's PEER_HEADER (tests/unit/client-address.test.ts holds the two equal). */
export const PEER_HEADER = "x-gateway-peer";

/** Marks this process: its PEER_HEADER comes from its own server. Call before the server listens. */
export function markPeerStamping() {
  globalThis.gatewayStampsPeer = true;
}

/**
 * Sets the request's PEER_HEADER to its socket's remote address (empty when the socket is gone), whatever the
 * client sent.
 */
export function stampPeer(request) {
  request.headers[PEER_HEADER] = request.socket?.remoteAddress ?? "";
}
