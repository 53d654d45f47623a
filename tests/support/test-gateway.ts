import { afterAll, beforeAll } from "vitest";
import { getDb } from "@/lib/db/client";
import { apiClient } from "./api";
import { startTestGateway, type TestGateway } from "./gateway-server";

/**
 * Starts the in-process gateway before a file's tests and closes it after them. Call it at the
 * top level of a test file, before the file's own hooks, so they run with the gateway up:
 * `const gateway = useTestGateway(); ... gateway.api.post(...)` or `const { api } = useTestGateway();`.
 */
export function useTestGateway() {
  let server: TestGateway | undefined;
  beforeAll(async () => {
    server = await startTestGateway();
    // Opening (and migrating) the database is the hook's cost, not the first test's.
    await getDb();
  });
  afterAll(() => server?.close());
  const baseUrl = () => {
    if (!server) throw new Error("the test gateway is not started yet (use it inside a hook or a test)");
    return server.baseUrl;
  };
  return {
    api: apiClient(baseUrl),
    get baseUrl() {
      return baseUrl();
    },
  };
}
