import type { IncomingHttpHeaders } from "node:http";
import { BlockList, isIP } from "node:net";
import parseForwarded from "forwarded-parse";
import { getConfig } from "../config";

/*
 * Who is asking, and over what: the one rule for every place that reads a client's address or
 * scheme (the console's audit log and sign-ins, a payment link's per-client limit, the pages'
 * https detection). The TCP peer is the client, unless it is a proxy the operator names in
 * TRUSTED_PROXIES: then the proxy's forwarded headers are read from the right, past every
 * trusted hop, and the first hop that is not trusted is the client. Whatever a client writes
 * into those headers itself sits left of what the proxies append, so it is never believed.
 *
 * Route handlers do not see the socket. The gateway's own HTTP server (`npm start`'s
 * server/serve.mjs, `npm run dev`'s server/dev.mjs, through server/stamp-peer.mjs) writes the
 * socket's remote address into PEER_HEADER on every request, replacing any copy the client
 * sent, and marks the process as doing so; in a process whose server does not (a bare
 * `next start`, a handler called directly), the header is ignored and the address is unknown.
 */

/** The request header the gateway's own server sets to the TCP peer's address (server/stamp-peer.mjs names it too). */
export const PEER_HEADER = "x-gateway-peer";

export interface ClientOrigin {
  /** The client's IP address; null when this process's server does not tell the peer. */
  address: string | null;
  /** The client asked over https, as a trusted proxy says (the gateway itself speaks plain http). */
  https: boolean;
}

const UNKNOWN: ClientOrigin = { address: null, https: false };

// gatewayStampsPeer: set by server/stamp-peer.mjs's markPeerStamping in a process whose server stamps the peer.
const globalForPeer = globalThis as unknown as {
  gatewayStampsPeer?: boolean;
  gatewayTrustedProxies?: { entries: readonly string[]; list: BlockList };
};

type HeaderSource = Headers | IncomingHttpHeaders;

export function clientOrigin(headers: HeaderSource): ClientOrigin {
  const read =
    headers instanceof Headers ? (name: string) => headers.get(name) : (name: string) => firstOf(headers[name]);
  const peer = globalForPeer.gatewayStampsPeer ? ipAddress(read(PEER_HEADER)) : null;
  if (peer === null) return UNKNOWN;
  const trusted = trustedProxies();
  if (!isTrusted(trusted, peer)) return { address: peer, https: false };
  const hops = forwardedHops(read);
  let client: Hop = { address: peer, proto: hops.length === 0 ? lastProto(read) : null };
  for (let index = hops.length - 1; index >= 0 && isTrusted(trusted, client.address); index -= 1) {
    const hop = hops[index]!;
    // A hop that is not an address (a typo, "unknown", an obfuscated name): the proxy that wrote it
    // is as far as we know.
    if (hop.address === null) break;
    client = { address: hop.address, proto: hop.proto };
  }
  return { address: client.address, https: client.proto === "https" };
}

interface Hop {
  address: string;
  /** The scheme this client used to reach the next proxy, as that proxy said it. */
  proto: string | null;
}

/**
 * The hops the proxies listed, left (farthest) to right (nearest): X-Forwarded-For with the
 * X-Forwarded-Proto entry at the same place counted from the right (a proxy that overwrites
 * rather than appends leaves one, which stands for every hop), or, without X-Forwarded-For,
 * RFC 7239's Forwarded (for and proto of each element; an unparsable header lists none).
 */
function forwardedHops(read: (name: string) => string | null): { address: string | null; proto: string | null }[] {
  const forwardedFor = read("x-forwarded-for");
  if (forwardedFor !== null) {
    const protos = listOf(read("x-forwarded-proto"));
    const addresses = listOf(forwardedFor);
    return addresses.map((entry, index) => ({
      address: ipAddress(entry),
      proto: (protos[protos.length - (addresses.length - index)] ?? protos[0] ?? null)?.toLowerCase() ?? null,
    }));
  }
  const forwarded = read("forwarded");
  if (forwarded === null) return [];
  try {
    return parseForwarded(forwarded).map((element) => ({
      address: ipAddress(element.for ?? null),
      proto: element.proto?.toLowerCase() ?? null,
    }));
  } catch {
    return [];
  }
}

/** A trusted peer that sent no hop, only the scheme: its last X-Forwarded-Proto entry. */
function lastProto(read: (name: string) => string | null): string | null {
  return listOf(read("x-forwarded-proto")).at(-1)?.toLowerCase() ?? null;
}

function listOf(header: string | null): string[] {
  return header === null ? [] : header.split(",").map((entry) => entry.trim());
}

/**
 * An address as a hop names it, in one spelling: "[2001:db8::1]:4711" and "192.0.2.4:80" lose
 * their port, "::ffff:192.0.2.4" (an IPv4 client of a dual-stack socket) is 192.0.2.4, a zone
 * is dropped. Null for anything that is not an IP address.
 */
export function ipAddress(text: string | null): string | null {
  if (text === null) return null;
  let candidate = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(candidate);
  if (bracketed) candidate = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(candidate)) candidate = candidate.slice(0, candidate.indexOf(":"));
  candidate = candidate.split("%")[0]!.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(candidate);
  if (mapped) candidate = mapped[1]!;
  return isIP(candidate) === 0 ? null : candidate;
}

function isTrusted(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/** TRUSTED_PROXIES as a BlockList (Node's own address and prefix matching), built once per configuration. */
function trustedProxies(): BlockList {
  const entries = getConfig().TRUSTED_PROXIES;
  const cached = globalForPeer.gatewayTrustedProxies;
  if (cached?.entries === entries) return cached.list;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  globalForPeer.gatewayTrustedProxies = { entries, list };
  return list;
}

function firstOf(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
