// `npm test` pretest: the browser suite drives Debian's Chromium, the journeys its old headless
// shell (the same Blink without the full browser's compositor and GPU process: a third less CPU
// on this machine, where the browser suite is bound by CPU); install them when missing.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

// Lighthouse and the rehearsal drive the full browser; the journeys the shell, unless CHROMIUM_PATH names another.
const PACKAGES = {
  chromium: "/usr/bin/chromium",
  ...(process.env.CHROMIUM_PATH ? {} : { "chromium-headless-shell": "/usr/bin/chromium-headless-shell" }),
};
const missing = Object.entries(PACKAGES)
  .filter(([, binary]) => !existsSync(binary))
  .map(([name]) => name);

if (missing.length > 0) {
  if (process.getuid?.() !== 0) {
    console.error(`Missing: ${missing.join(", ")}. Install: sudo apt-get install -y ${missing.join(" ")}`);
    process.exit(1);
  }
  console.log(`Installing ${missing.join(" and ")} from Debian's packages (one time)...`);
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(" ")}`, {
    stdio: "inherit",
  });
}
