import postgres from "postgres";

/**
 * With DATABASE_URL, the suite runs on a database it recreates, so each run starts from
 * the committed migrations and nothing a previous run left behind.
 */
export default async function setup() {
  const url = process.env.DATABASE_URL;
  if (!url) return;
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^[a-z0-9_]+$/i.test(name)) throw new Error(`Refusing to recreate database ${name}`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    await sql.unsafe(`create database "${name}"`);
  } finally {
    await sql.end();
  }
}
