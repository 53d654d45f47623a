import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8"));

interface LockedPackage {
  engines?: { node?: string };
}

describe("the Node.js version the project declares", () => {
  const declared: string = read("package.json").engines.node;
  const oldestAllowed = semver.minVersion(declared)!.version;

  // `npm install` warns (EBADENGINE) for a dependency that refuses the running Node, and the
  // dependency may then fail at run time: every locked package must take the oldest Node we
  // say we run on, dependencies of the build and tests included.
  it("is accepted by every locked dependency's engines field", () => {
    const packages: Record<string, LockedPackage> = read("package-lock.json").packages;
    const refusing = Object.entries(packages)
      .filter(([name, locked]) => name !== "" && locked.engines?.node)
      .filter(([, locked]) => !semver.satisfies(oldestAllowed, locked.engines!.node!))
      .map(([name, locked]) => `${name.replace(/^.*node_modules\//, "")} wants ${locked.engines!.node}`);
    expect(refusing, `package.json declares node ${declared}`).toEqual([]);
  });

  it("is what the guides tell an operator to install", () => {
    const minor = oldestAllowed.replace(/\.0$/, "");
    expect(readFileSync(path.join(ROOT, "docs/going-live.md"), "utf8")).toContain(`Node.js ${minor} or newer`);
    expect(readFileSync(path.join(ROOT, "docs/first-payment.md"), "utf8")).toContain(`Node.js ${minor}+`);
  });
});
