import { afterEach, describe, expect, it, vi } from "vitest";

// The guard reads its setting (lib/config, cached per process) once: each case loads a fresh
// copy under a fresh configuration.
const forgetConfig = () => delete (globalThis as { gatewayConfig?: unknown }).gatewayConfig;

async function guardUnder(env: Record<string, string | undefined>) {
  vi.resetModules();
  forgetConfig();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return import("@/lib/db/transaction-guard");
}

const port = { charge: () => "charged" };

describe("the transaction guard's setting", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
    forgetConfig();
  });

  it("refuses a provider call inside a transaction outside production", async () => {
    const guard = await guardUnder({ NODE_ENV: "test", GATEWAY_TRANSACTION_GUARD: undefined });
    const guarded = guard.outsideTransactions("wallet", port);
    expect(guarded.charge()).toBe("charged");
    expect(() => guard.runInTransactionScope(() => guarded.charge())).toThrow(guard.ProviderCallInTransactionError);
  });

  it("is off in production unless turned on, and leaves ports and databases as they are", async () => {
    const off = await guardUnder({ NODE_ENV: "production", GATEWAY_TRANSACTION_GUARD: undefined });
    expect(off.outsideTransactions("wallet", port)).toBe(port);
    const db = { transaction: (callback: (tx: unknown) => unknown) => callback("tx") };
    const original = db.transaction;
    expect(off.markTransactions(db).transaction).toBe(original);

    const on = await guardUnder({ NODE_ENV: "production", GATEWAY_TRANSACTION_GUARD: "on" });
    const guarded = on.outsideTransactions("wallet", port);
    expect(() => on.runInTransactionScope(() => guarded.charge())).toThrow(on.ProviderCallInTransactionError);
  });

  it("can be turned off outside production", async () => {
    const off = await guardUnder({ NODE_ENV: "test", GATEWAY_TRANSACTION_GUARD: "off" });
    expect(off.outsideTransactions("wallet", port)).toBe(port);
  });
});
