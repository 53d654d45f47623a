// `npm test` pretest: the browser suite drives Debian's Chromium; install it when missing.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";

if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing at ${CHROMIUM}. Install it: sudo apt-get install -y chromium`);
    process.exit(1);
  }
  console.log("Installing Chromium from Debian's packages (one time)...");
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", {
    stdio: "inherit",
  });
}
