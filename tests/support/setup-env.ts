// Every test file: quiet logs, and an in-memory embedded database unless PostgreSQL is given.
process.env.LOG_LEVEL ??= "silent";
if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = "memory://";
