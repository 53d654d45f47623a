import { spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../support/spawned-gateway";

/**
 * `npm run simulator -- chargily` is Chargily Pay's stand-in as a process of its own (for production
 * rehearsals: CHARGILY_API_URL=<apiUrl>): it prints where it answers and the key it accepts,
 * speaks the v2 API and its checkout over HTTP, and posts its signed webhook over HTTP.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "chargily-simulator-"));
let child: ChildProcess | undefined;
let receiver: Server | undefined;

afterAll(() => {
  child?.kill("SIGKILL");
  receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run simulator -- chargily", () => {
  it("creates a checkout, takes a card on its page, signs its webhook and answers the checkout over HTTP", async () => {
    const webhooks: { body: string; signature: string }[] = [];
    const receiverPort = await freePort();
    receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        webhooks.push({ body, signature: String(request.headers.signature ?? "") });
        response.writeHead(200).end();
      });
    }).listen(receiverPort, "127.0.0.1");
    const port = await freePort();
    child = spawn(process.execPath, ["--import", "tsx", "scripts/simulator.ts", "chargily", "--json"], {
      cwd: ROOT,
      env: {
        ...process.env,
        CHARGILY_SIMULATOR_PORT: String(port),
        CHARGILY_SIMULATOR_PGLITE_DIR: dataDir,
        CHARGILY_SIMULATOR_DATABASE_URL: "",
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
        throw new Error(`the Chargily simulator did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const printed = JSON.parse(output.split("\n")[0]!) as { apiUrl: string; mode: string; secretKey: string };
    expect(printed).toMatchObject({
      apiUrl: `http://127.0.0.1:${port}/api/v2`,
      mode: "test",
      secretKey: expect.stringMatching(/^test_sk_/),
    });
    const api = (endpoint: string, init: RequestInit = {}, key = printed.secretKey) =>
      fetch(`${printed.apiUrl}/${endpoint}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" },
      });

    expect((await api("balance", {}, "test_sk_wrong")).status).toBe(401);
    expect((await api("balance")).status).toBe(200);
    const refused = await api("checkouts", {
      method: "POST",
      body: JSON.stringify({ amount: 1500.5, currency: "dzd", success_url: "https://gateway.example/back" }),
    });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ errors: { amount: ["The amount field must be an integer."] } });
    const created = await api("checkouts", {
      method: "POST",
      body: JSON.stringify({
        amount: 1500,
        currency: "dzd",
        success_url: "https://gateway.example/back",
        failure_url: "https://gateway.example/back",
        webhook_endpoint: `http://127.0.0.1:${receiverPort}/notify`,
        locale: "fr",
      }),
    });
    const checkout = (await created.json()) as { id: string; checkout_url: string; status: string };
    expect(checkout).toMatchObject({
      status: "pending",
      checkout_url: `http://127.0.0.1:${port}/checkout/${checkout.id}`,
    });
    expect(await (await fetch(checkout.checkout_url)).text()).toContain("Numéro de carte");
    const paid = await fetch(checkout.checkout_url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        action: "pay",
        paymentMethod: "edahabia",
        cardNumber: "5555555555554444",
        expiry: "12/34",
        cvc: "123",
      }),
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe("https://gateway.example/back");
    expect(webhooks).toHaveLength(1);
    expect(webhooks[0]!.signature).toBe(
      createHmac("sha256", printed.secretKey).update(webhooks[0]!.body).digest("hex"),
    );
    expect(JSON.parse(webhooks[0]!.body)).toMatchObject({
      entity: "event",
      type: "checkout.paid",
      data: { id: checkout.id, status: "paid", amount: 1500 },
    });
    expect(await (await api(`checkouts/${checkout.id}`)).json()).toMatchObject({
      status: "paid",
      payment_method: "edahabia",
    });
  }, 120_000);
});
