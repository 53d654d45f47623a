import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../support/spawned-gateway";

/**
 * `npm run simulator -- satim` is SATIM's stand-in as a process of its own (for production
 * rehearsals: SATIM_API_URL=<apiUrl>): it prints where it answers and the merchant it accepts,
 * and speaks SATIM ePay's REST calls and payment page over HTTP.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "satim-simulator-"));
let child: ChildProcess | undefined;

afterAll(() => {
  child?.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const,
});

describe("npm run simulator -- satim", () => {
  it("registers, takes a card on its page and confirms the order over HTTP", async () => {
    const port = await freePort();
    child = spawn(process.execPath, ["--import", "tsx", "scripts/simulator.ts", "satim", "--json"], {
      cwd: ROOT,
      env: {
        ...process.env,
        SATIM_SIMULATOR_PORT: String(port),
        SATIM_SIMULATOR_PGLITE_DIR: dataDir,
        SATIM_SIMULATOR_DATABASE_URL: "",
        LOG_LEVEL: "silent",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 90_000;
    while (!output.includes("\n")) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the SATIM simulator did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const printed = JSON.parse(output.split("\n")[0]!) as {
      apiUrl: string;
      terminalId: string;
      userName: string;
      password: string;
    };
    expect(printed).toMatchObject({ apiUrl: `http://127.0.0.1:${port}/payment/rest`, terminalId: "E010900000" });
    const credentials = { userName: printed.userName, password: printed.password };

    const denied = await (
      await fetch(`${printed.apiUrl}/register.do`, form({ ...credentials, password: "wrong" }))
    ).json();
    expect(denied).toEqual({ errorCode: "5", errorMessage: "Access denied" });
    const registered = await (
      await fetch(
        `${printed.apiUrl}/register.do`,
        form({
          ...credentials,
          orderNumber: "REHEARSE01",
          amount: "150000",
          currency: "012",
          returnUrl: "https://gateway.example/back",
          language: "fr",
          jsonParams: JSON.stringify({ force_terminal_id: printed.terminalId, udf1: "rehearsal" }),
        }),
      )
    ).json();
    expect(registered).toMatchObject({ errorCode: "0", orderId: expect.stringMatching(/^.{20}$/) });
    const page = await fetch(registered.formUrl);
    expect(await page.text()).toContain("Numéro de carte");
    const paid = await fetch(
      registered.formUrl,
      form({ action: "pay", cardNumber: "5555555555554444", expiry: "12/34", cvc: "123" }),
    );
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`https://gateway.example/back?orderId=${registered.orderId}`);
    const confirmed = await (
      await fetch(
        `${printed.apiUrl}/confirmOrder.do`,
        form({ ...credentials, orderId: registered.orderId, language: "fr" }),
      )
    ).json();
    expect(confirmed).toMatchObject({
      ErrorCode: "0",
      OrderStatus: 2,
      OrderNumber: "REHEARSE01",
      depositAmount: 150000,
      Pan: "555555******4444",
      params: { udf1: "rehearsal" },
    });
  }, 120_000);
});
