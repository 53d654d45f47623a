import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { endpoint } from "@/lib/http/endpoint";

/**
 * A gateway instance serving the real endpoint() pipeline (request scope, auth, rate limits,
 * validation, envelope) behind the cheapest handlers there are, one per auth mode. The
 * rate limit tests use it where the gateway has no route of that mode yet, and run it in
 * a second process to stand for a second gateway instance on the same store.
 */
const ok = async () => ({ data: null, message: "ok" });

const probes: { pattern: RegExp; method: string; paramName?: string; handler: ReturnType<typeof endpoint> }[] = [
  {
    method: "GET",
    pattern: /^\/probe\/merchant\/([^/]+)$/,
    paramName: "id",
    handler: endpoint({ auth: ["merchant"] }, ok),
  },
  { method: "GET", pattern: /^\/probe\/client$/, handler: endpoint({ auth: ["client"] }, ok) },
  {
    method: "GET",
    pattern: /^\/probe\/client-validated$/,
    handler: endpoint({ auth: ["client"], query: z.object({ countryCode: z.string().regex(/^[A-Z]{3}$/) }) }, ok),
  },
  { method: "GET", pattern: /^\/probe\/user$/, handler: endpoint({ auth: ["user"] }, ok) },
  {
    method: "POST",
    pattern: /^\/probe\/finalize\/([^/]+)$/,
    paramName: "paymentActionId",
    handler: endpoint({ auth: ["intent_secret"] }, ok),
  },
];

export interface ProbeGateway {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startProbeGateway(): Promise<ProbeGateway> {
  const server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? "/", "http://probe.test");
    const probe = probes.find((entry) => entry.method === incoming.method && entry.pattern.test(url.pathname));
    if (!probe) {
      outgoing.statusCode = 404;
      outgoing.end();
      return;
    }
    const match = probe.pattern.exec(url.pathname)!;
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers))
      if (typeof value === "string") headers.set(name, value);
    const params = probe.paramName ? { [probe.paramName]: decodeURIComponent(match[1]!) } : {};
    probe
      .handler(new Request(url, { method: incoming.method, headers }), { params: Promise.resolve(params) })
      .then(async (response) => {
        outgoing.statusCode = response.status;
        response.headers.forEach((value, name) => outgoing.setHeader(name, value));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch((error: unknown) => {
        outgoing.statusCode = 599;
        outgoing.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** The same probe gateway in a child process: a second instance with its own pool and store client. */
export async function spawnProbeGateway(env: Record<string, string | undefined>): Promise<ProbeGateway> {
  const { spawn } = await import("node:child_process");
  const path = await import("node:path");
  const root = path.resolve(import.meta.dirname, "../..");
  const probe = JSON.stringify(path.join(root, "tests/integration/rate-limit-probe.ts"));
  const script = `const { startProbeGateway } = await import(${probe});
const gateway = await startProbeGateway();
console.log(JSON.stringify({ baseUrl: gateway.baseUrl }));`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split("\n").find((candidate) => candidate.startsWith("{"));
      if (line) resolve((JSON.parse(line) as { baseUrl: string }).baseUrl);
    });
    child.on("exit", (code) => reject(new Error(`probe gateway exited with ${code}: ${stderr}`)));
  });
  return {
    baseUrl,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
