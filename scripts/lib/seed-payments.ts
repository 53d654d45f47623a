import type { Sql } from "postgres";
import { STATUS_TEXT } from "../../lib/payments/core/payment-messages";

/**
 * Fills a freshly migrated database directly with SQL (generate_series) with payments as the
 * gateway leaves them: wallet debits (some by QR), reservations held, captured in part and
 * released, partial and full refunds, failures, card payments (brand and last 4 kept) with the
 * provider's books, one event per notified state change delivered with its attempt, and the
 * timeline of every state change with its cause. For benchmarks and the audit's measurement only.
 *
 * `merchants` services share `payments`; the first holds `bigShare` of them, the others split
 * the rest. Creation times spread evenly over the last `spreadDays` (0: all now).
 */
export interface SeedOptions {
  payments: number;
  merchants?: number;
  bigShare?: number;
  spreadDays?: number;
}

export const BIG_SERVICE_CODE = "bench";

export async function seedPayments(sql: Sql, options: SeedOptions): Promise<void> {
  const count = options.payments;
  const merchants = options.merchants ?? 1;
  const bigPerMille = Math.round((options.bigShare ?? 1) * 1000);
  const spreadSeconds = Math.round((options.spreadDays ?? 0) * 86_400);
  await sql.begin(async (tx) => {
    await tx`set local work_mem = '64MB'`;
    await tx`insert into tenants (code, name) values ('bench', 'Bench')`;
    await tx`insert into services (tenant_id, code, name, countries, webhook_url, webhook_secret_encrypted,
               card_provider_publishable_key)
             select t.id, case when s = 1 then ${BIG_SERVICE_CODE} else 'bench-' || s end, 'Bench ' || s, '{DZA}',
                    'https://shop.example/hooks', 'x', 'pk_bench_' || s
             from tenants t, generate_series(1, ${merchants}) s`;
    // kind: 0-3 wallet paid (2 by QR), 4 wallet partly refunded, 5 reserved, 6 reserved then partly
    // captured, 7 reserved then released, 8 failed, 9 card paid and fully refunded.
    // A reservation older than its 7 days would have been released by the sweep: those are kind 7.
    await tx`create temporary table seed_base on commit drop as
             select i, id, case when kind = 5 and created_at < now() - interval '6 days' then 7 else kind end as kind,
                    amount, si, created_at
             from (select g as i, gen_random_uuid() as id, g % 10 as kind, (1000 + (g % 50) * 100)::bigint as amount,
                          case when ${merchants} = 1 or g % 1000 < ${bigPerMille} then 1
                            else 2 + g % (${merchants} - 1) end as si,
                          now() - make_interval(secs => (${count} - g)::double precision * ${spreadSeconds} / ${count})
                            as created_at
                   from generate_series(1, ${count}) g) spread`;
    await tx`create temporary table seed_services on commit drop as
             select b.si, s.id as service_id, greatest(1, count(*) / 5) as customers
             from seed_base b
             join services s on s.code = case when b.si = 1 then ${BIG_SERVICE_CODE} else 'bench-' || b.si end
             group by b.si, s.id`;
    await tx`insert into customers (service_id, name, phone, email)
             select v.service_id,
                    (array['Amina','Yacine','Sofia','Karim','Lina','Omar','Nour','Rami'])[k % 8 + 1] || ' '
                      || (array['Benali','Haddad','Mansouri','Kaci',
                                'Trabelsi','Alaoui','Cherif','Zidane'])[(k / 8) % 8 + 1]
                      || ' ' || k,
                    '+2135' || lpad(v.si::text, 2, '0') || lpad(k::text, 6, '0'),
                    case when k % 3 <> 0 then 'customer' || k || '@shop' || v.si || '.example' end
             from seed_services v, generate_series(1, v.customers) k`;
    await tx`insert into simulators.wallet_accounts (service_id, customer_id, currency, balance_minor)
             select service_id, id, 'DZD', 1000000 from customers`;
    await tx`insert into simulators.wallet_entries (account_id, kind, balance_delta_minor)
             select id, 'opening', 1000000 from simulators.wallet_accounts`;
    await tx`create temporary table seed on commit drop as
             select b.*, c.id as customer_id, a.id as account_id, c.service_id,
                    case when b.kind = 9 then (array['DZD','TND','MAD'])[b.i % 3 + 1] else 'DZD' end as currency
             from seed_base b
             join seed_services v on v.si = b.si
             join customers c on c.service_id = v.service_id
               and c.phone = '+2135' || lpad(b.si::text, 2, '0') || lpad((b.i % v.customers + 1)::text, 6, '0')
             join simulators.wallet_accounts a on a.customer_id = c.id`;
    await tx`insert into payments (id, service_id, customer_id, action_id, request_fingerprint, state, amount_minor,
               currency, country, capture_method, transaction_type, payment_method_code, captured_minor, refunded_minor,
               expires_at, authorized_at, provider_reference, status, created_at, updated_at)
             select id, service_id, customer_id, 'order-' || i, 'fp',
                    (case kind when 4 then 'PARTIALLY_REFUNDED' when 5 then 'PRE_AUTHORIZED' when 6 then 'SUCCEEDED'
                      when 7 then 'CANCELED' when 8 then 'FAILED' when 9 then 'REFUNDED'
                      else 'SUCCEEDED' end)::payment_state,
                    amount, currency, 'DZA',
                    (case when kind in (5, 6, 7) then 'RESERVATION' else 'DIRECT' end)::capture_method,
                    case when kind = 2 then 'QR_CODE'::transaction_type end,
                    case when kind = 9 then 'CARD_PROVIDER' else 'WALLET_V2' end,
                    case when kind in (5, 7, 8) then 0 when kind = 6 then amount / 2 else amount end,
                    case when kind = 4 then amount / 4 when kind = 9 then amount else 0 end,
                    created_at + interval '30 minutes',
                    case when kind in (5, 6, 7) then created_at + interval '1 minute' end,
                    case when kind = 9 then 'pi_' || i end,
                    case kind when 4 then ${STATUS_TEXT.partiallyRefunded} when 5 then ${STATUS_TEXT.reserved}
                      when 6 then ${STATUS_TEXT.captured} when 7 then ${STATUS_TEXT.released}
                      when 8 then ${STATUS_TEXT.insufficientFunds} when 9 then ${STATUS_TEXT.refunded}
                      else ${STATUS_TEXT.succeeded} end,
                    created_at, created_at + interval '2 minutes'
             from seed`;
    await tx`insert into payment_captures (payment_id, amount_minor, released_minor)
             select id, case when kind = 6 then amount / 2 else amount end,
                    case when kind = 6 then amount - amount / 2 else 0 end
             from seed where kind in (0, 1, 2, 3, 4, 6, 9)`;
    await tx`insert into payment_refunds (payment_id, amount_minor, description)
             select id, amount / 4, 'one item' from seed where kind = 4
             union all select id, amount / 2, 'half' from seed where kind = 9
             union all select id, amount - amount / 2, 'rest' from seed where kind = 9`;
    await tx`insert into simulators.wallet_holds
               (account_id, payment_id, amount_minor, captured_minor, status, closed_at)
             select account_id, id, amount, case when kind = 6 then amount / 2 else 0 end,
                    (case kind when 5 then 'active' when 6 then 'captured'
                      else 'released' end)::simulators.wallet_hold_status,
                    case when kind <> 5 then now() end
             from seed where kind in (5, 6, 7)`;
    await tx`insert into simulators.wallet_entries (account_id, payment_id, kind, balance_delta_minor, held_delta_minor)
             select account_id, id, 'debit'::simulators.wallet_entry_kind, -amount, 0
               from seed where kind in (0, 1, 2, 3, 4)
             union all select account_id, id, 'refund', amount / 4, 0 from seed where kind = 4
             union all select account_id, id, 'hold', 0, amount from seed where kind in (5, 6, 7)
             union all select account_id, id, 'hold_capture', -(amount / 2), -(amount / 2) from seed where kind = 6
             union all select account_id, id, 'hold_release', 0, -(amount - amount / 2) from seed where kind = 6
             union all select account_id, id, 'hold_release', 0, -amount from seed where kind = 7`;
    await tx`update simulators.wallet_accounts a set balance_minor = e.balance, held_minor = e.held
             from (select account_id, sum(balance_delta_minor) as balance, sum(held_delta_minor) as held
                   from simulators.wallet_entries group by account_id) e
             where e.account_id = a.id`;
    await tx`insert into simulators.card_provider_payment_intents (id, account_key, idempotency_key, amount_minor,
               currency, capture_method, status, amount_received_minor, amount_refunded_minor)
             select 'pi_' || i, 'pk_bench', 'payment:' || id, amount, currency, 'automatic', 'succeeded', amount, amount
             from seed where kind = 9`;
    await tx`insert into simulators.card_provider_refunds (id, payment_intent_id, amount_minor)
             select 're_a' || i, 'pi_' || i, amount / 2 from seed where kind = 9
             union all select 're_b' || i, 'pi_' || i, amount - amount / 2 from seed where kind = 9`;
    await tx`insert into card_payments
               (payment_id, provider_intent_id, card_brand, card_last4, finalized_at, created_at)
             select id, 'pi_' || i, case when i % 4 = 0 then 'mastercard' else 'visa' end,
                    lpad(((i::bigint * 7919) % 10000)::text, 4, '0'), created_at + interval '1 minute', created_at
             from seed where kind = 9`;
    // Events: one per notified change, with the body enqueueNotification writes (contract 7: id,
    // type, createdAt, data as notifyPaymentChange fills it), so the console reads seeded events
    // as it reads real ones. Amounts in standard units: minor / 10^exponent (TND 3, the rest 2).
    await tx`create temporary table seed_events on commit drop as
             select s.id as payment_id, s.service_id, s.i, s.created_at, s.currency, s.amount, e.*
             from seed s cross join lateral (values
               (1, case s.kind when 8 then 'payment.failed' when 5 then 'payment.pre_authorized'
                   when 6 then 'payment.pre_authorized' when 7 then 'payment.pre_authorized'
                   else 'payment.succeeded' end,
                   case when s.kind in (5, 6, 7) then 13 when s.kind = 8 then 3 else 2 end,
                   case when s.kind in (5, 6, 7) then 13 when s.kind = 8 then 3 else 2 end,
                   case when s.kind in (5, 6, 7) then ${STATUS_TEXT.reserved}
                     when s.kind = 8 then ${STATUS_TEXT.insufficientFunds} else ${STATUS_TEXT.succeeded} end,
                   null::bigint, null::bigint),
               (2, case s.kind when 4 then 'payment.refunded' when 6 then 'payment.captured'
                   when 7 then 'payment.released' when 9 then 'payment.refunded' end,
                   case s.kind when 4 then 4 when 6 then 2 when 7 then 10 when 9 then 4 end,
                   case s.kind when 4 then 16 when 6 then 2 when 7 then 10 when 9 then 16 end,
                   case s.kind when 6 then ${STATUS_TEXT.captured} when 7 then ${STATUS_TEXT.released}
                     else ${STATUS_TEXT.partiallyRefunded} end,
                   case when s.kind = 6 then s.amount / 2 end,
                   case s.kind when 4 then s.amount / 4 when 9 then s.amount / 2 end),
               (3, case when s.kind = 9 then 'payment.refunded' end, 4, 4, ${STATUS_TEXT.refunded}, null,
                   s.amount - s.amount / 2)
             ) as e(step, type, remote, after, status, captured, refunded)
             where e.type is not null`;
    await tx`insert into notifications
               (id, service_id, payment_id, type, payload, status, attempt_count, delivered_at, created_at)
             select id, service_id, payment_id, type,
                    jsonb_build_object('id', id, 'type', type,
                      'createdAt', to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                      'data', jsonb_strip_nulls(jsonb_build_object('paymentId', payment_id, 'actionId', 'order-' || i,
                        'remoteStatusCode', remote, 'statusCode', after, 'status', status,
                        'amount', amount::float8 / scale, 'currency', currency,
                        'capturedAmount', captured::float8 / scale, 'refundedAmount', refunded::float8 / scale))),
                    'delivered', 1, at, at
             from (select e.*, 'msg_' || lpad(i::text, 10, '0') || step as id,
                          created_at + make_interval(mins => step) as at,
                          case when currency = 'TND' then 1000 else 100 end as scale
                   from seed_events e) events`;
    await tx`insert into notification_attempts (notification_id, attempt_number, response_status, duration_ms)
             select id, 1, 200, 12 from notifications`;
    // The timeline: creation by the API, then each change with who made it.
    await tx`insert into payment_state_changes (payment_id, service_id, from_state, to_state, cause, at)
             select s.id, s.service_id, t.from_state::payment_state, t.to_state::payment_state,
                    t.cause::state_change_cause, s.created_at + make_interval(secs => t.step * 20)
             from seed s cross join lateral (values
               (0, null, 'CREATED', 'api'),
               (1, 'CREATED', case when s.kind = 2 then 'PROCESSING' else 'REQUIRES_ACTION' end, 'api'),
               (2, case when s.kind = 2 then 'PROCESSING' else 'REQUIRES_ACTION' end,
                   case when s.kind in (5, 6, 7) then 'PRE_AUTHORIZED' when s.kind = 8 then 'FAILED'
                     else 'SUCCEEDED' end, 'buyer'),
               (3, case when s.kind in (6, 7) then 'PRE_AUTHORIZED' when s.kind in (4, 9) then 'SUCCEEDED' end,
                   case when s.kind = 6 then 'SUCCEEDED' when s.kind = 7 then 'CANCELED'
                     when s.kind in (4, 9) then 'PARTIALLY_REFUNDED' end, 'api'),
               (4, case when s.kind = 9 then 'PARTIALLY_REFUNDED' end, case when s.kind = 9 then 'REFUNDED' end, 'api')
             ) as t(step, from_state, to_state, cause)
             where t.to_state is not null`;
  });
}
