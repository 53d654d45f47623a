// The provider-operation boundary (see ARCHITECTURE.md "Provider operations"): record, call, settle.
// Reconciliation and the table of every handler sit above, in lib/provider-operation-registry.
export * from "./provider-operation";
export * from "./run-provider-operation";
export * from "./request-operation";
export { outsideTransactions, isInsideTransaction } from "../db/transaction-guard";
