import { isIPv4, isIPv6 } from "node:net";

/** What an IP address is, as far as sending a webhook to it goes: only `public` may be reached in production. */
export type AddressClass =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "link_local"
  | "metadata"
  | "cgnat"
  | "multicast"
  | "reserved"
  | "invalid";

interface Range {
  prefix: string;
  bits: number;
  /**
   * `embedded_ipv4`: the class is the one of the IPv4 address carried in the low 32 bits (or bits 80..111 for
   * 6to4).
   */
  class: AddressClass | "embedded_ipv4" | "embedded_6to4";
}

// First match wins, so the narrow ranges (metadata endpoints) come before the wide ones.
const IPV4_RANGES: Range[] = [
  { prefix: "169.254.169.254", bits: 32, class: "metadata" }, // AWS, GCP, Azure, OpenStack
  { prefix: "100.100.100.200", bits: 32, class: "metadata" }, // Alibaba Cloud
  { prefix: "0.0.0.0", bits: 8, class: "unspecified" },
  { prefix: "10.0.0.0", bits: 8, class: "private" },
  { prefix: "100.64.0.0", bits: 10, class: "cgnat" },
  { prefix: "127.0.0.0", bits: 8, class: "loopback" },
  { prefix: "169.254.0.0", bits: 16, class: "link_local" },
  { prefix: "172.16.0.0", bits: 12, class: "private" },
  { prefix: "192.0.0.0", bits: 24, class: "reserved" }, // IETF protocol assignments
  { prefix: "192.0.2.0", bits: 24, class: "reserved" }, // documentation
  { prefix: "192.88.99.0", bits: 24, class: "reserved" }, // 6to4 relay anycast
  { prefix: "192.168.0.0", bits: 16, class: "private" },
  { prefix: "198.18.0.0", bits: 15, class: "reserved" }, // benchmarking
  { prefix: "198.51.100.0", bits: 24, class: "reserved" }, // documentation
  { prefix: "203.0.113.0", bits: 24, class: "reserved" }, // documentation
  { prefix: "224.0.0.0", bits: 4, class: "multicast" },
  { prefix: "240.0.0.0", bits: 4, class: "reserved" }, // includes 255.255.255.255
];

const IPV6_RANGES: Range[] = [
  { prefix: "::", bits: 128, class: "unspecified" },
  { prefix: "::1", bits: 128, class: "loopback" },
  { prefix: "::ffff:0:0", bits: 96, class: "embedded_ipv4" }, // IPv4-mapped
  { prefix: "64:ff9b::", bits: 96, class: "embedded_ipv4" }, // NAT64: reaches the embedded IPv4 address
  { prefix: "64:ff9b:1::", bits: 48, class: "private" }, // local-use NAT64
  { prefix: "::", bits: 96, class: "reserved" }, // IPv4-compatible (deprecated)
  { prefix: "100::", bits: 64, class: "reserved" }, // discard
  { prefix: "2001::", bits: 32, class: "reserved" }, // Teredo tunnels
  { prefix: "2001:db8::", bits: 32, class: "reserved" }, // documentation
  { prefix: "2002::", bits: 16, class: "embedded_6to4" },
  { prefix: "fd00:ec2::254", bits: 128, class: "metadata" }, // AWS IPv6 instance metadata
  { prefix: "fc00::", bits: 7, class: "private" }, // unique local
  { prefix: "fe80::", bits: 10, class: "link_local" },
  { prefix: "fec0::", bits: 10, class: "private" }, // site-local (deprecated)
  { prefix: "ff00::", bits: 8, class: "multicast" },
];

const parsedV4 = IPV4_RANGES.map((range) => ({ ...range, base: ipv4ToBigInt(range.prefix) }));
const parsedV6 = IPV6_RANGES.map((range) => ({ ...range, base: ipv6ToBigInt(range.prefix) }));

/**
 * Classifies one IP address (IPv4, IPv6, IPv4-mapped IPv6, with or without brackets or a
 * zone id). The SSRF guard allows only `public` in production.
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIPv4(bare)) return classifyV4(ipv4ToBigInt(bare));
  if (isIPv6(bare)) return classifyV6(ipv6ToBigInt(bare));
  return "invalid";
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === "public";
}

function classifyV4(value: bigint): AddressClass {
  for (const range of parsedV4) {
    if (inRange(value, range.base, range.bits, 32)) return range.class as AddressClass;
  }
  return "public";
}

function classifyV6(value: bigint): AddressClass {
  for (const range of parsedV6) {
    if (!inRange(value, range.base, range.bits, 128)) continue;
    switch (range.class) {
      case "embedded_ipv4":
        return classifyV4(value & 0xffff_ffffn);
      case "embedded_6to4":
        return classifyV4((value >> 80n) & 0xffff_ffffn);
      default:
        return range.class;
    }
  }
  return "public";
}

function inRange(value: bigint, base: bigint, bits: number, width: number): boolean {
  const shift = BigInt(width - bits);
  return value >> shift === base >> shift;
}

function ipv4ToBigInt(address: string): bigint {
  return address.split(".").reduce((sum, octet) => (sum << 8n) + BigInt(Number(octet)), 0n);
}

/** Expects an address node:net already accepted as IPv6 (so the shape is valid). */
function ipv6ToBigInt(address: string): bigint {
  let text = address.toLowerCase();
  // A dotted IPv4 tail (::ffff:127.0.0.1) becomes two hextets.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4ToBigInt(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const headParts = head ? head.split(":") : [];
  const tailParts = tail ? tail.split(":") : [];
  const missing = 8 - headParts.length - tailParts.length;
  const parts = tail === undefined ? headParts : [...headParts, ...Array<string>(missing).fill("0"), ...tailParts];
  return parts.reduce((sum, part) => (sum << 16n) + BigInt(parseInt(part, 16)), 0n);
}
