import { afterAll, beforeAll } from "vitest";
import { startProbeGateway, type ProbeGateway } from "../integration/rate-limit-probe";
import { apiClient } from "./api";
import { startTestGateway, type TestGateway } from "./gateway-server";

/**
 * Starts the in-process gateway and a probe gateway (every auth mode behind the real endpoint()
 * pipeline) before a file's tests and closes both after them. Vitest runs afterAll hooks in
 * reverse: a file's own beforeAll registered earlier runs before the start, its afterAll after
 * the close. (Kept out of rate-limit-probe.ts, which a child process imports without vitest.)
 */
export function useGatewayAndProbe() {
  let gateway: TestGateway | undefined;
  let probeGateway: ProbeGateway | undefined;
  beforeAll(async () => {
    [gateway, probeGateway] = await Promise.all([startTestGateway(), startProbeGateway()]);
  });
  afterAll(async () => {
    await Promise.all([gateway?.close(), probeGateway?.close()]);
  });
  const started = <T>(server: T | undefined): T => {
    if (!server) throw new Error("the gateways are not started yet (use them inside a hook or a test)");
    return server;
  };
  return {
    api: apiClient(() => started(gateway).baseUrl),
    probe: apiClient(() => started(probeGateway).baseUrl),
  };
}
