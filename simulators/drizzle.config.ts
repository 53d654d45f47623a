import { defineConfig } from "drizzle-kit";

// The simulators' tables (schema `simulators`), migrated apart from the gateway's: only the
// processes that run a simulator apply these (simulators/db/migrate-simulator-tables.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./simulators/db/schema.ts",
  out: "./simulators/drizzle",
  schemaFilter: ["simulators"],
});
