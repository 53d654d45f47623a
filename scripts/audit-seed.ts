// `npx tsx scripts/audit-seed.ts --database-url <url> [--payments 100000]`: recreates the named
// database, migrates it, and fills it directly with SQL with payments as the gateway leaves
// them (wallet debits, reservations held, captured in part and released, partial and full
// refunds, failures, card payments with the provider's books, one event per state change,
// delivered with their attempts), then times `runAudit` on it. For measuring the audit only.
import { parseArgs } from "node:util";
import postgres from "postgres";
import { formatAuditReport, runAudit } from "../lib/audit/run-audit";
import { openAuditDatabase } from "../lib/audit/open-audit-database";
import { openDatabase } from "../lib/db/client";
import { recreateDatabase } from "./lib/recreate-database";

const { values } = parseArgs({
  options: { "database-url": { type: "string" }, payments: { type: "string", default: "100000" } },
});
const url = values["database-url"];
if (!url) throw new Error("--database-url is required (a database this script may drop and recreate)");
const count = Number(values.payments);

await recreateDatabase(url);
await (await openDatabase({ databaseUrl: url, pgliteDir: "" })).close();
const sql = postgres(url, { max: 1, onnotice: () => {} });
const seedStarted = performance.now();
await sql.begin(async (tx) => {
  await tx`insert into tenants (code, name) values ('bench', 'Bench')`;
  await tx`insert into services (tenant_id, code, name, countries, webhook_url, webhook_secret_encrypted, card_provider_publishable_key)
           select id, 'bench', 'Bench', '{DZA}', 'https://shop.example/hooks', 'x', 'pk_bench' from tenants`;
  const customers = Math.max(1, Math.floor(count / 5));
  await tx`insert into customers (service_id, name, phone)
           select s.id, 'Customer ' || g, '+2135' || lpad(g::text, 8, '0') from services s, generate_series(1, ${customers}) g`;
  await tx`insert into wallet_accounts (service_id, customer_id, currency, balance_minor)
           select service_id, id, 'DZD', 1000000 from customers`;
  await tx`insert into wallet_entries (account_id, kind, balance_delta_minor) select id, 'opening', 1000000 from wallet_accounts`;
  // kind: 0-3 wallet paid, 4 wallet partly refunded, 5 reserved, 6 reserved then partly captured,
  // 7 reserved then released, 8 failed, 9 card paid and fully refunded.
  await tx`create temporary table seed on commit drop as
           select g as i, gen_random_uuid() as id, g % 10 as kind, (1000 + (g % 50) * 100)::bigint as amount,
                  c.id as customer_id, a.id as account_id, c.service_id
           from generate_series(1, ${count}) g
           join customers c on c.phone = '+2135' || lpad((g % ${customers} + 1)::text, 8, '0')
           join wallet_accounts a on a.customer_id = c.id`;
  await tx`insert into payments (id, service_id, customer_id, action_id, request_fingerprint, state, amount_minor, currency,
             country, capture_method, payment_method_code, captured_minor, refunded_minor, expires_at, authorized_at,
             provider_reference)
           select id, service_id, customer_id, 'order-' || i, 'fp',
                  (case kind when 4 then 'PARTIALLY_REFUNDED' when 5 then 'PRE_AUTHORIZED' when 6 then 'SUCCEEDED'
                    when 7 then 'CANCELED' when 8 then 'FAILED' when 9 then 'REFUNDED' else 'SUCCEEDED' end)::payment_state,
                  amount, 'DZD', 'DZA',
                  (case when kind in (5, 6, 7) then 'RESERVATION' else 'DIRECT' end)::capture_method,
                  case when kind = 9 then 'CARD_PROVIDER' else 'WALLET_V2' end,
                  case when kind in (5, 7, 8) then 0 when kind = 6 then amount / 2 else amount end,
                  case when kind = 4 then amount / 4 when kind = 9 then amount else 0 end,
                  now() + interval '30 minutes',
                  case when kind in (5, 6, 7) then now() end,
                  case when kind = 9 then 'pi_' || i end
           from seed`;
  await tx`insert into payment_captures (payment_id, amount_minor, released_minor)
           select id, case when kind = 6 then amount / 2 else amount end, case when kind = 6 then amount - amount / 2 else 0 end
           from seed where kind in (0, 1, 2, 3, 4, 6, 9)`;
  await tx`insert into payment_refunds (payment_id, amount_minor, description)
           select id, amount / 4, 'one item' from seed where kind = 4
           union all select id, amount / 2, 'half' from seed where kind = 9
           union all select id, amount - amount / 2, 'rest' from seed where kind = 9`;
  await tx`insert into wallet_holds (account_id, payment_id, amount_minor, captured_minor, status, closed_at)
           select account_id, id, amount, case when kind = 6 then amount / 2 else 0 end,
                  (case kind when 5 then 'active' when 6 then 'captured' else 'released' end)::wallet_hold_status,
                  case when kind <> 5 then now() end
           from seed where kind in (5, 6, 7)`;
  await tx`insert into wallet_entries (account_id, payment_id, kind, balance_delta_minor, held_delta_minor)
           select account_id, id, 'debit'::wallet_entry_kind, -amount, 0 from seed where kind in (0, 1, 2, 3, 4)
           union all select account_id, id, 'refund', amount / 4, 0 from seed where kind = 4
           union all select account_id, id, 'hold', 0, amount from seed where kind in (5, 6, 7)
           union all select account_id, id, 'hold_capture', -(amount / 2), -(amount / 2) from seed where kind = 6
           union all select account_id, id, 'hold_release', 0, -(amount - amount / 2) from seed where kind = 6
           union all select account_id, id, 'hold_release', 0, -amount from seed where kind = 7`;
  await tx`update wallet_accounts a set balance_minor = e.balance, held_minor = e.held
           from (select account_id, sum(balance_delta_minor) as balance, sum(held_delta_minor) as held
                 from wallet_entries group by account_id) e
           where e.account_id = a.id`;
  await tx`insert into card_provider_payment_intents (id, account_key, idempotency_key, amount_minor, currency, capture_method,
             status, amount_received_minor, amount_refunded_minor)
           select 'pi_' || i, 'pk_bench', 'payment:' || id, amount, 'DZD', 'automatic', 'succeeded', amount, amount
           from seed where kind = 9`;
  await tx`insert into card_provider_refunds (id, payment_intent_id, amount_minor)
           select 're_a' || i, 'pi_' || i, amount / 2 from seed where kind = 9
           union all select 're_b' || i, 'pi_' || i, amount - amount / 2 from seed where kind = 9`;
  // Events: (payment, step, remoteStatusCode, statusCode after it).
  await tx`create temporary table seed_events on commit drop as
           select s.id as payment_id, s.service_id, s.i, e.step, e.remote, e.after
           from seed s cross join lateral (values
             (1, case when s.kind in (5, 6, 7) then 13 when s.kind = 8 then 3 else 2 end,
                 case when s.kind in (5, 6, 7) then 13 when s.kind = 8 then 3 else 2 end),
             (2, case when s.kind = 4 then 4 when s.kind = 6 then 2 when s.kind = 7 then 10 when s.kind = 9 then 4 end,
                 case when s.kind = 4 then 16 when s.kind = 6 then 2 when s.kind = 7 then 10 when s.kind = 9 then 16 end),
             (3, case when s.kind = 9 then 4 end, case when s.kind = 9 then 4 end)
           ) as e(step, remote, after)
           where e.remote is not null`;
  await tx`insert into notifications (id, service_id, payment_id, type, payload, status, attempt_count, delivered_at, created_at)
           select 'msg_' || lpad(i::text, 10, '0') || step, service_id, payment_id, 'payment.event',
                  json_build_object('data', json_build_object('paymentId', payment_id, 'remoteStatusCode', remote, 'statusCode', after)),
                  'delivered', 1, now(), now()
           from seed_events`;
  await tx`insert into notification_attempts (notification_id, attempt_number, response_status, duration_ms)
           select id, 1, 200, 12 from notifications`;
});
const seedMs = performance.now() - seedStarted;
await sql`analyze`;
await sql.end();

const handle = await openAuditDatabase({ databaseUrl: url, pgliteDir: "" });
try {
  for (const run of [1, 2]) {
    const report = await runAudit(handle.db, {
      retrySchedule: [5, 300, 1800, 7200, 18000, 36000, 36000],
      deliverySlackSeconds: 120,
      reconciliationBoundSeconds: 900,
    });
    console.log(`-- audit run ${run}`);
    console.log(formatAuditReport(report));
  }
  console.log(`seeded ${count} payments in ${(seedMs / 1000).toFixed(1)} s`);
} finally {
  await handle.close();
}
