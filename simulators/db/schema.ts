// Every simulator's tables; drizzle-kit reads this file (simulators/drizzle.config.ts) to
// generate the simulators' migrations (simulators/drizzle), apart from the gateway's.
export * from "./simulators-schema";
export * from "../card/card-tables";
export * from "../wallet/wallet-tables";
export * from "../satim/satim-tables";
export * from "../clictopay/clictopay-tables";
export * from "../cmi/cmi-tables";
export * from "../chargily/chargily-tables";
