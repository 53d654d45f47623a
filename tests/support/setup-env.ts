// Every test file: quiet logs. DATABASE_URL comes from the global setup (PostgreSQL).
process.env.LOG_LEVEL ??= "silent";
