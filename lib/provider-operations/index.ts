// The provider-operation boundary (see ARCHITECTURE.md "Provider operations"): record, call, settle, reconcile.
export * from "./provider-operation";
export * from "./run-provider-operation";
export * from "./reconcile-provider-operations";
export * from "./request-operation";
export { outsideTransactions, isInsideTransaction } from "../db/transaction-guard";
