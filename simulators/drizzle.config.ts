import { defineConfig } from "drizzle-kit";

// The simulators' tables (schema `simulators`), migrated apart from the gateway's: only the
// processes that run a simulator apply these (simulators/db/migrate-simulator-tables.ts). Each
// simulator's tables are its folder's <name>-tables.ts, found here by name: no list to extend.
export default defineConfig({
  dialect: "postgresql",
  schema: ["./simulators/db/simulators-schema.ts", "./simulators/*/*-tables.ts"],
  out: "./simulators/drizzle",
  schemaFilter: ["simulators"],
});
