import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hasValidCmiHash } from "@/lib/payment-methods/cmi/cmi-hash";
import { simulatorHash } from "@/simulators/cmi/cmi-simulator";
import { freePort } from "../support/spawned-gateway";

/**
 * `npm run simulator -- cmi` is CMI's stand-in as a process of its own (for production rehearsals:
 * CMI_URL=<cmiUrl>): it prints where it answers and the store it accepts, takes the 3D Pay
 * Hosting form and a card over HTTP, posts its signed callback to the store over HTTP, applies
 * the store's ACTION=POSTAUTH, and answers CC5Requests.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "cmi-simulator-"));
let child: ChildProcess | undefined;
let store: Server | undefined;

afterAll(() => {
  child?.kill("SIGKILL");
  store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const,
});

describe("npm run simulator -- cmi", () => {
  it("takes form and card, posts a signed callback over HTTP, captures on POSTAUTH, answers status", async () => {
    const callbacks: Record<string, string>[] = [];
    const storePort = await freePort();
    store = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        callbacks.push(Object.fromEntries(new URLSearchParams(body)));
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("ACTION=POSTAUTH");
      });
    });
    await new Promise<void>((resolve) => store!.listen(storePort, "127.0.0.1", resolve));

    const port = await freePort();
    child = spawn(process.execPath, ["--import", "tsx", "scripts/simulator.ts", "cmi", "--json"], {
      cwd: ROOT,
      env: {
        ...process.env,
        CMI_SIMULATOR_PORT: String(port),
        CMI_SIMULATOR_PGLITE_DIR: dataDir,
        CMI_SIMULATOR_DATABASE_URL: "",
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
        throw new Error(`the CMI simulator did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const printed = JSON.parse(output.split("\n")[0]!) as {
      cmiUrl: string;
      clientId: string;
      storeKey: string;
      apiUser: string;
      apiPassword: string;
    };
    expect(printed).toMatchObject({ cmiUrl: `http://127.0.0.1:${port}`, clientId: "600000001" });

    const fields: Record<string, string> = {
      clientid: printed.clientId,
      storetype: "3D_PAY_HOSTING",
      TranType: "PreAuth",
      amount: "99.90",
      currency: "504",
      oid: "REHEARSE01D",
      okUrl: "https://gateway.example/back",
      failUrl: "https://gateway.example/back",
      callbackUrl: `http://127.0.0.1:${storePort}/callback`,
      lang: "fr",
      rnd: "0123456789",
      hashAlgorithm: "ver3",
      encoding: "UTF-8",
    };
    const wrong = await fetch(
      `${printed.cmiUrl}/fim/est3Dgate`,
      form({ ...fields, HASH: simulatorHash(fields, "not-the-key") }),
    );
    expect(wrong.status).toBe(400);
    const page = await fetch(
      `${printed.cmiUrl}/fim/est3Dgate`,
      form({ ...fields, HASH: simulatorHash(fields, printed.storeKey) }),
    );
    const html = await page.text();
    expect(html).toContain("Numéro de carte");
    expect(html).toContain("99.90 MAD");
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!.replace(/&#38;/g, "&");
    const paid = await fetch(
      new URL(action, printed.cmiUrl),
      form({ action: "pay", cardNumber: "5555555555554444", expiry: "12/34", cvc: "123" }),
    );
    expect(paid.status).toBe(200);
    const back = await paid.text();
    expect(back).toContain('<form method="post" action="https://gateway.example/back">');
    expect(back).toContain('name="ProcReturnCode" value="00"');

    expect(callbacks).toHaveLength(1);
    expect(callbacks[0]).toMatchObject({
      oid: "REHEARSE01D",
      amount: "99.90",
      ProcReturnCode: "00",
      Response: "Approved",
      maskedCreditCard: "555555***4444",
    });
    expect(hasValidCmiHash(callbacks[0]!, printed.storeKey)).toBe(true);

    const status = await (
      await fetch(`${printed.cmiUrl}/fim/api`, {
        method: "POST",
        body:
          `<CC5Request><Name>${printed.apiUser}</Name><Password>${printed.apiPassword}</Password>` +
          `<ClientId>${printed.clientId}</ClientId><OrderId>REHEARSE01D</OrderId>` +
          `<Extra><ORDERSTATUS>QUERY</ORDERSTATUS></Extra></CC5Request>`,
      })
    ).text();
    expect(status).toContain("<ProcReturnCode>00</ProcReturnCode>");
    expect(status).toContain("<TRANS_STAT>C</TRANS_STAT>");
    expect(status).toContain("<CAPTURE_AMT>9990</CAPTURE_AMT>");
  }, 120_000);
});
