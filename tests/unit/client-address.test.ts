import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { clientOrigin, ipAddress, PEER_HEADER } from "@/lib/http/client-address";
import { markPeerStamping, PEER_HEADER as STAMPED_HEADER } from "../../server/stamp-peer.mjs";

const holder = globalThis as unknown as { gatewayConfig?: ReturnType<typeof parseConfig>; gatewayStampsPeer?: boolean };
let saved: { config: typeof holder.gatewayConfig; stamps: boolean | undefined };

beforeEach(() => {
  saved = { config: holder.gatewayConfig, stamps: holder.gatewayStampsPeer };
  markPeerStamping();
});
afterEach(() => {
  holder.gatewayConfig = saved.config;
  holder.gatewayStampsPeer = saved.stamps;
});

function trusting(list: string) {
  holder.gatewayConfig = parseConfig({ TRUSTED_PROXIES: list });
}

const from = (peer: string, headers: Record<string, string> = {}) =>
  clientOrigin(new Headers({ ...headers, [PEER_HEADER]: peer }));

describe("the client's address and scheme", () => {
  it("is the TCP peer, whatever forwarded headers an untrusted peer sends", () => {
    trusting("10.0.0.5");
    const forged = {
      "x-forwarded-for": "203.0.113.9",
      "x-forwarded-proto": "https",
      "x-real-ip": "203.0.113.9",
      forwarded: "for=203.0.113.9;proto=https",
    };
    expect(from("198.51.100.7", forged)).toEqual({ address: "198.51.100.7", https: false });
    trusting("");
    expect(from("198.51.100.7", forged)).toEqual({ address: "198.51.100.7", https: false });
  });

  it("is the right-most hop that is not a trusted proxy, when the peer is one (addresses and CIDR ranges)", () => {
    trusting("10.0.0.5, 192.168.0.0/16");
    // The client wrote 1.2.3.4 itself; the edge proxy appended the address it saw.
    expect(from("10.0.0.5", { "x-forwarded-for": "1.2.3.4, 203.0.113.9", "x-forwarded-proto": "https" })).toEqual({
      address: "203.0.113.9",
      https: true,
    });
    // Two trusted proxies in a row.
    expect(
      from("10.0.0.5", { "x-forwarded-for": "1.2.3.4, 203.0.113.9, 192.168.4.4", "x-forwarded-proto": "https, http" }),
    ).toEqual({
      address: "203.0.113.9",
      https: true,
    });
    expect(from("10.0.0.5", { "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "http" })).toEqual({
      address: "203.0.113.9",
      https: false,
    });
  });

  it("reads RFC 7239's Forwarded when the proxy sends no X-Forwarded-For, with the same rule", () => {
    trusting("2001:db8::/48");
    expect(
      from("2001:db8::1", { forwarded: 'for=1.2.3.4;proto=http, for="[2001:db8:cafe::17]:4711";proto=https' }),
    ).toEqual({
      address: "2001:db8:cafe::17",
      https: true,
    });
    // Unparsable: no hop at all, the proxy is the client.
    expect(from("2001:db8::1", { forwarded: "for=1.2.3.4;;;proto" })).toEqual({ address: "2001:db8::1", https: false });
  });

  it("stops at a hop that is not an address, at the proxy that wrote it", () => {
    trusting("10.0.0.5");
    expect(from("10.0.0.5", { "x-forwarded-for": "unknown" })).toEqual({ address: "10.0.0.5", https: false });
  });

  it("takes an IPv4 client of a dual-stack socket as IPv4", () => {
    trusting("127.0.0.1");
    expect(from("::ffff:127.0.0.1", { "x-forwarded-for": "203.0.113.9:5123" })).toEqual({
      address: "203.0.113.9",
      https: false,
    });
    expect(ipAddress("::FFFF:192.0.2.4")).toBe("192.0.2.4");
    expect(ipAddress("fe80::1%eth0")).toBe("fe80::1");
    expect(ipAddress("<script>")).toBeNull();
  });

  it("is unknown where the process's own server does not stamp the peer: a client's copy is never believed", () => {
    trusting("10.0.0.5");
    holder.gatewayStampsPeer = undefined;
    expect(from("10.0.0.5", { "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https" })).toEqual({
      address: null,
      https: false,
    });
  });

  it("reads node's own headers object as the console lane hands it", () => {
    trusting("10.0.0.5");
    expect(
      clientOrigin({ [PEER_HEADER]: "10.0.0.5", "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https" }),
    ).toEqual({ address: "203.0.113.9", https: true });
  });

  it("names the same header as the server that stamps it", () => {
    expect(STAMPED_HEADER).toBe(PEER_HEADER);
  });
});

describe("TRUSTED_PROXIES", () => {
  it("takes addresses and CIDR ranges, and refuses anything else", () => {
    expect(parseConfig({ TRUSTED_PROXIES: "10.0.0.5, 192.168.0.0/16,fd00::/8" }).TRUSTED_PROXIES).toEqual([
      "10.0.0.5",
      "192.168.0.0/16",
      "fd00::/8",
    ]);
    expect(parseConfig({}).TRUSTED_PROXIES).toEqual([]);
    for (const bad of ["proxy.internal", "10.0.0.0/33", "10.0.0.5/8/1", "*"])
      expect(() => parseConfig({ TRUSTED_PROXIES: bad })).toThrow(/TRUSTED_PROXIES/);
  });
});
