// The anti-bot check (components/anti-bot-check.tsx): solves ALTCHA's proof of work in the page
// (altcha-lib's solver on Web Crypto, no third-party code), puts the solution in the form and
// takes the code field away. Without script, or if solving fails, the code field stays.
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/web/sha";
import { markIslandReady, readIslandConfig } from "./runtime";

export interface AntiBotIslandConfig {
  challenge: Challenge;
  working: string;
  passed: string;
}

const NAME = "anti-bot";
const config = readIslandConfig<AntiBotIslandConfig>(NAME);
const status = document.getElementById("anti-bot-status");
const solution = document.getElementById("anti-bot-solution");
const code = document.getElementById("anti-bot-code");
const say = (text: string) => {
  if (!status) return;
  status.hidden = false;
  status.textContent = text;
};

async function solve() {
  say(config.working);
  const solved = await solveChallenge({ challenge: config.challenge, deriveKey, timeout: 30_000 }).catch(() => null);
  if (!solved || !(solution instanceof HTMLInputElement)) {
    if (status) status.hidden = true;
    return;
  }
  solution.value = btoa(JSON.stringify({ challenge: config.challenge, solution: solved }));
  code?.querySelector("input[required]")?.removeAttribute("required");
  if (code) code.hidden = true;
  say(config.passed);
}

void solve().finally(() => markIslandReady(NAME));
