import { AsyncLocalStorage } from "node:async_hooks";
import { peekConfig } from "../config";

/*
 * The rule "no provider call inside a database transaction", checked at run time: every
 * transaction the gateway opens runs its callback inside `transactionScope` (lib/db/client
 * wraps `db.transaction`), and every provider port is wrapped by `outsideTransactions`, which
 * refuses a call made from inside one. tests/integration/provider-operations.test.ts and
 * wallet-provider-operations.test.ts drive the card and wallet flows with the guard on.
 */
const transactionScope = new AsyncLocalStorage<true>();

/*
 * On by default everywhere but production (tests, `npm run dev`); GATEWAY_TRANSACTION_GUARD=on
 * or off decides otherwise (the Playwright server turns it on). Production leaves it off for
 * speed: on Node 20 every AsyncLocalStorage that was ever entered adds a property to every
 * promise the process creates. With this one and the log's beside Next.js's own three, a check
 * cost about a tenth more CPU than with Next's three alone (issue 13); the log's is the one the
 * API lane enters (lib/log.ts).
 */
let guardedSetting: boolean | undefined;
function guarded(): boolean {
  guardedSetting ??=
    (peekConfig().GATEWAY_TRANSACTION_GUARD ?? (process.env.NODE_ENV === "production" ? "off" : "on")) === "on";
  return guardedSetting;
}

export function runInTransactionScope<T>(callback: () => T): T {
  return transactionScope.run(true, callback);
}

export function isInsideTransaction(): boolean {
  return transactionScope.getStore() === true;
}

export class ProviderCallInTransactionError extends Error {
  constructor(what: string) {
    super(`${what} was called inside a database transaction; provider calls run between transactions.`);
    this.name = "ProviderCallInTransactionError";
  }
}

/** Wraps every method of a provider port so a call made inside a transaction throws. */
export function outsideTransactions<P extends object>(name: string, port: P): P {
  if (!guarded()) return port;
  return new Proxy(port, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (isInsideTransaction()) throw new ProviderCallInTransactionError(`${name}.${String(property)}`);
        // The provider's own work (the sandbox keeps its books in this database) is not the caller's transaction.
        return transactionScope.exit(() => (value as (...a: unknown[]) => unknown).apply(target, args));
      };
    },
  });
}

/** Wraps `db.transaction` so code inside a transaction is known to be there. */
export function markTransactions<D extends { transaction: (...args: never[]) => unknown }>(db: D): D {
  if (!guarded()) return db;
  const original = db.transaction.bind(db) as unknown as (
    callback: (tx: unknown) => unknown,
    config?: unknown,
  ) => unknown;
  (db as unknown as { transaction: unknown }).transaction = (callback: (tx: unknown) => unknown, config?: unknown) =>
    original((tx) => runInTransactionScope(() => callback(tx)), config);
  return db;
}
