// `node scripts/profile-top.mjs PROFILE [N]`: self time of a `node --cpu-prof` profile by area (package, Next.js
// part, the app bundle, node internals) and by function, as shares of busy (non-idle) time.
import fs from "node:fs";
const p = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const N = Number(process.argv[3] ?? 25);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = p.timeDeltas;
let total = 0;
for (let i = 0; i < p.samples.length; i++) {
  const d = dt[i] ?? 0;
  total += d;
  self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + d);
}
const area = (url) => {
  if (!url) return "(native/vm)";
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) {
    if (m[1] === "next") {
      const c = url.match(/next\/dist\/(compiled\/[^/]+|server\/[^/]+|[^/]+)/);
      return "next:" + (c?.[1] ?? "");
    }
    return m[1];
  }
  if (url.startsWith("node:")) return url;
  if (url.includes(".next/server")) return "app-bundle";
  return url
    .replace(/^file:\/\//, "")
    .split("/")
    .slice(-2)
    .join("/");
};
const fn = new Map(),
  ar = new Map();
for (const [id, t] of self) {
  const n = byId.get(id);
  const cf = n.callFrame;
  const name = cf.functionName || "(anon)";
  const key = `${name} ${area(cf.url)}:${cf.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + t);
  const a = name === "(idle)" || name === "(program)" || name === "(garbage collector)" ? name : area(cf.url);
  ar.set(a, (ar.get(a) ?? 0) + t);
}
const idle = ar.get("(idle)") ?? 0;
const busy = total - idle;
console.log(`total ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s`);
const show = (m, n) =>
  [...m]
    .filter(([k]) => k !== "(idle)" && !k.startsWith("(idle)"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .forEach(([k, t]) => console.log(`${((100 * t) / busy).toFixed(1).padStart(5)}%  ${k}`));
console.log("--- by area");
show(ar, 22);
console.log("--- by function");
show(fn, N);
