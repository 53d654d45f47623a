import postgres from "postgres";

/**
 * Drops and creates the database `url` names, through the server's `postgres` database, so a
 * run starts from the committed migrations and nothing a previous run left behind. The name
 * is interpolated into DDL, hence the strict pattern.
 */
export async function recreateDatabase(url: string, options: { dropOnly?: boolean } = {}) {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z0-9_]+$/i.test(name)) throw new Error(`Refusing to recreate database ${name}`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    if (!options.dropOnly) await sql.unsafe(`create database "${name}"`);
  } finally {
    await sql.end();
  }
}

/** A fresh database next to `url`'s (same server), named after it with `suffix`. */
export async function recreateSiblingDatabase(url: string, suffix: string): Promise<string> {
  const target = new URL(url);
  target.pathname = `${target.pathname}${suffix}`;
  await recreateDatabase(target.toString());
  return target.toString();
}
