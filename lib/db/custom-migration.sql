-- SQL that drizzle-kit cannot express, appended as its own migration by `npm run db:generate`.

-- Rate limit state is ephemeral (a TAT per caller, meaningless a minute later). Unlogged, a
-- request's limit update writes no WAL, so auth + limit commit without waiting for a disk
-- flush: the read-only hot paths (check, methods) stay free of an fsync per request. After a
-- crash PostgreSQL empties the table, which only hands every caller a full quota once.
ALTER TABLE "rate_limits" SET UNLOGGED;
