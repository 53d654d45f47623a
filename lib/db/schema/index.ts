// Every aggregate's tables; drizzle-kit reads this file to generate migrations.
export * from "./merchants";
export * from "./customers";
export * from "./notifications";
