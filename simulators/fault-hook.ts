import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { toRequest } from "../lib/http/serve-fetch-on-node";

/**
 * What the next matching request suffers (tests, the chaos run): the provider's failures, before or after it
 * applied the change.
 */
export type SimulatorFault = "timeout_before" | "timeout_after" | "error_500" | "reset_before" | "reset_after";

export const SIMULATOR_FAULTS: readonly SimulatorFault[] = [
  "error_500",
  "reset_before",
  "reset_after",
  "timeout_before",
  "timeout_after",
];

/**
 * The faults waiting for their request, shared by every simulator served over HTTP: a fault is
 * injected for the next request whose line ("METHOD /path") matches, and that request takes it
 * (once). The server in front of the simulator applies it (a 500, the socket reset, or no
 * answer at all), before or after the simulator handled the request.
 */
export interface FaultHook {
  inject(match: RegExp, fault: SimulatorFault): void;
  /** The fault waiting for this request line, removed from the queue; null for none. */
  take(line: string): SimulatorFault | null;
}

export function createFaultHook(): FaultHook {
  const waiting: { match: RegExp; fault: SimulatorFault }[] = [];
  return {
    inject: (match, fault) => void waiting.push({ match, fault }),
    take(line) {
      const index = waiting.findIndex((entry) => entry.match.test(line));
      return index >= 0 ? waiting.splice(index, 1)[0]!.fault : null;
    },
  };
}

/**
 * One simulator's HTTP face under a path prefix: its fetch-style handler (e.g. handleSatimRequest bound to
 * the prefix).
 */
export interface SimulatorRoute {
  /** "/satim"; "" for the simulator that takes every other path. */
  prefix: string;
  /** What a fault's 500 answers (the provider's own shape of an internal error). */
  errorBody: string;
  handle(request: Request): Promise<Response>;
}

export interface FaultySimulators {
  url: string;
  faults: FaultHook;
  close(): Promise<void>;
}

/**
 * Serves several simulators on one port, each under its prefix, every request past one fault
 * hook (lines are the full path, "POST /satim/payment/rest/register.do"). A simulator that
 * throws (its database away) answers the same 500 a fault does: a provider's outage.
 */
export async function serveSimulatorsWithFaults(options: {
  port?: number;
  host?: string;
  routes: SimulatorRoute[];
  /** Told of each fault as a request takes it. */
  onFault?: (line: string, fault: SimulatorFault) => void;
}): Promise<FaultySimulators> {
  const faults = createFaultHook();
  const hanging = new Set<ServerResponse>();
  const routes = [...options.routes].sort((a, b) => b.prefix.length - a.prefix.length);
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const request = await toRequest(incoming, `http://${incoming.headers.host ?? "127.0.0.1"}`);
      const { pathname } = new URL(request.url);
      const route = routes.find(
        (entry) => entry.prefix === "" || pathname === entry.prefix || pathname.startsWith(`${entry.prefix}/`),
      );
      if (!route) return void outgoing.writeHead(404).end();
      const line = `${request.method} ${pathname}`;
      const fault = faults.take(line);
      if (fault) options.onFault?.(line, fault);
      const error500 = () => void outgoing.writeHead(500, { "content-type": "application/json" }).end(route.errorBody);
      if (fault === "reset_before") return void incoming.socket.destroy();
      if (fault === "timeout_before") return void hanging.add(outgoing);
      if (fault === "error_500") return error500();
      let answer: Response;
      try {
        answer = await route.handle(request);
      } catch {
        return error500();
      }
      const body = Buffer.from(await answer.arrayBuffer());
      if (fault === "reset_after") return void incoming.socket.destroy();
      if (fault === "timeout_after") return void hanging.add(outgoing);
      const headers = new Map<string, string>();
      answer.headers.forEach((value, name) => headers.set(name, value));
      outgoing.writeHead(answer.status, Object.fromEntries(headers)).end(body);
    })().catch(() => {
      if (!outgoing.headersSent) outgoing.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    faults,
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
