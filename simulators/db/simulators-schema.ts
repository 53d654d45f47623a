import { pgSchema } from "drizzle-orm/pg-core";

/**
 * The PostgreSQL schema that holds every simulator's books, apart from the gateway's tables (in
 * `public`): a production database never has it, since only the processes that run a simulator
 * create it (migrate-simulator-tables.ts).
 */
export const simulators = pgSchema("simulators");
