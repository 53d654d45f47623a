// Every aggregate's tables; drizzle-kit reads this file to generate migrations.
export * from "./merchants";
export * from "./customers";
export * from "./notifications";
export * from "./payments";
export * from "./idempotency";
export * from "./rate-limits";
export * from "./card-provider";
export * from "./saved-cards";
export * from "./payment-methods";
export * from "./provider-operations";
export * from "./payment-links";
export * from "./database-seal";
export * from "./console";
export * from "./audit-log";
export * from "./metrics-snapshots";
export * from "./redirect-payments";
