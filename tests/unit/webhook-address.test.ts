import { describe, expect, it } from "vitest";
import { classifyAddress, isPublicAddress } from "@/lib/notifications/classify-address";
import {
  assertUrlAllowed,
  assertWebhookUrlAllowed,
  guardedLookup,
  productionWebhookPolicy,
  sandboxWebhookPolicy,
} from "@/lib/notifications/webhook-policy";

describe("classifyAddress (SSRF guard)", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.10", "private"],
    ["169.254.10.20", "link_local"],
    ["169.254.169.254", "metadata"],
    ["100.100.100.200", "metadata"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["192.0.2.5", "reserved"],
  ])("refuses IPv4 %s as %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.1.1",
    "11.0.0.1",
  ])("allows public IPv4 %s", (address) => {
    expect(classifyAddress(address)).toBe("public");
  });

  it.each([
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "private"],
    ["fd12:3456:789a::1", "private"],
    ["fd00:ec2::254", "metadata"],
    ["fe80::1", "link_local"],
    ["fe80::1%eth0", "link_local"],
    ["febf:ffff::1", "link_local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
  ])("refuses IPv6 %s as %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each(["2606:4700:4700::1111", "2001:4860:4860::8888", "2a00:1450:4007:80f::200e"])(
    "allows public IPv6 %s",
    (address) => {
      expect(classifyAddress(address)).toBe("public");
    },
  );

  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::FFFF:10.1.2.3", "private"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:a9fe:a9fe", "metadata"],
    ["::ffff:100.64.1.1", "cgnat"],
    ["64:ff9b::10.0.0.1", "private"],
    ["2002:7f00:1::", "loopback"],
  ])("classifies the IPv4 address inside %s (%s)", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it("allows a v4-mapped public address", () => {
    expect(classifyAddress("::ffff:8.8.8.8")).toBe("public");
  });

  it("answers invalid for something that is not an IP address", () => {
    expect(classifyAddress("example.com")).toBe("invalid");
    expect(classifyAddress("999.1.1.1")).toBe("invalid");
  });
});

describe("webhook URL policy", () => {
  it("lets the sandbox reach http and loopback", () => {
    expect(() => assertUrlAllowed(new URL("http://127.0.0.1:8080/hook"), sandboxWebhookPolicy)).not.toThrow();
  });

  it("refuses http in production", () => {
    expect(() => assertUrlAllowed(new URL("http://8.8.8.8/hook"), productionWebhookPolicy)).toThrow(/https/);
  });

  it("refuses an IP-literal host that is not public in production", () => {
    expect(() => assertUrlAllowed(new URL("https://[::ffff:10.0.0.1]/hook"), productionWebhookPolicy)).toThrow(
      /private/,
    );
    expect(() => assertUrlAllowed(new URL("https://169.254.169.254/latest"), productionWebhookPolicy)).toThrow(
      /metadata/,
    );
  });

  it("refuses at onboarding a host name that resolves to loopback", async () => {
    await expect(assertWebhookUrlAllowed("https://localhost/hook", productionWebhookPolicy)).rejects.toThrow(
      /loopback/,
    );
  });

  it("refuses in the connection's lookup a name resolving to loopback, whatever form Node asks for", async () => {
    const lookup = guardedLookup(productionWebhookPolicy);
    for (const all of [false, true]) {
      const error = await new Promise<Error | null>((resolve) => lookup("localhost", { all }, (err) => resolve(err)));
      expect(error?.message).toMatch(/loopback/);
    }
  });
});
