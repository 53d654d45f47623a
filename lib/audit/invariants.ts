import { sql, type SQL } from "drizzle-orm";
import { EVENT_RETENTION_DAYS } from "../events/purge-events";
import { EXPIRY_GRACE_MS } from "../payments/core/payment-expiry";
import { methodCodesOfProvider } from "../payment-methods/registry/method-funds";

/**
 * The money and state invariants `npm run audit` checks. Each is one set-based query over the
 * whole database that returns only the rows breaking it, as `subject` (the payment, account or
 * event id) and `detail` (what is wrong, with the numbers), so a clean database costs one scan
 * per invariant and nothing else.
 *
 * The transitions log is the outbox (`notifications`): every change into 2, 3, 13, 10, 4 or 16
 * writes its event in the transaction that makes the change, with the state it led to
 * (`data.statusCode`). Its ids are ULIDs generated after the payment row is locked, so per
 * payment they sort in the order the changes committed; that order is the history the
 * "terminal states are never left" check replays.
 */
export interface AuditOptions {
  /** Seconds before each webhook retry (config WEBHOOK_RETRY_SCHEDULE). */
  retrySchedule: readonly number[];
  /** Seconds a delivery may overrun its schedule (worker lease, delivery timeout, clock skew). */
  deliverySlackSeconds: number;
  /** Seconds a provider operation may stay unsettled before reconciliation must have settled it. */
  reconciliationBoundSeconds: number;
}

export interface Invariant {
  name: string;
  rule: string;
  /**
   * A table the invariant needs; it is skipped (and says so) while the table does not exist: the
   * simulators' books (schema `simulators`) are only in a sandbox database.
   */
  requiresTable?: string;
  query(options: AuditOptions): SQL;
}

// Events are kept EVENT_RETENTION_DAYS (contract 12), then purged: a payment's event history is
// complete only when the payment is younger than that, so the event checks stop at that horizon.
const WITHIN_EVENT_RETENTION = sql.raw(`p.created_at >= now() - make_interval(days => ${EVENT_RETENTION_DAYS})`);

const STATE_CODE = sql.raw(`case p.state
  when 'SUCCEEDED' then 2 when 'FAILED' then 3 when 'PRE_AUTHORIZED' then 13 when 'CANCELED' then 10
  when 'REFUNDED' then 4 when 'PARTIALLY_REFUNDED' then 16 when 'REQUIRES_ACTION' then 12 else 1 end`);

export const INVARIANTS: Invariant[] = [
  {
    name: "payment_amounts",
    rule:
      "captured <= authorized amount, refunded <= captured, " +
      "and the payment's sums equal its capture and refund rows",
    query: () => sql`
      with c as (select payment_id, sum(amount_minor) as total, count(*) as n
                 from payment_captures group by payment_id),
           r as (select payment_id, sum(amount_minor) as total from payment_refunds group by payment_id)
      select p.id as subject,
             format('amount %s, captured %s (rows %s in %s), refunded %s (rows %s)', p.amount_minor, p.captured_minor,
                    coalesce(c.total, 0), coalesce(c.n, 0), p.refunded_minor, coalesce(r.total, 0)) as detail
      from payments p
      left join c on c.payment_id = p.id
      left join r on r.payment_id = p.id
      where p.captured_minor < 0 or p.captured_minor > p.amount_minor
         or p.refunded_minor < 0 or p.refunded_minor > p.captured_minor
         or p.captured_minor <> coalesce(c.total, 0) or p.refunded_minor <> coalesce(r.total, 0)
         or coalesce(c.n, 0) > 1
         or (p.capture_method = 'DIRECT' and p.captured_minor not in (0, p.amount_minor))`,
  },
  {
    name: "payment_state_agrees_with_sums",
    rule:
      "nothing captured before success; SUCCEEDED has a capture and no refund; " +
      "PARTIALLY_REFUNDED 0 < refunded < captured; REFUNDED iff refunded = captured > 0; " +
      "reservations carry their authorization time",
    query: () => sql`
      select p.id as subject,
             format('state %s (%s), captured %s, refunded %s, authorized_at %s', p.state, p.capture_method,
                    p.captured_minor, p.refunded_minor, coalesce(p.authorized_at::text, 'null')) as detail
      from payments p
      where not case p.state
        when 'CREATED' then p.captured_minor = 0 and p.refunded_minor = 0
        when 'PROCESSING' then p.captured_minor = 0 and p.refunded_minor = 0
        when 'REQUIRES_ACTION' then p.captured_minor = 0 and p.refunded_minor = 0
        when 'FAILED' then p.captured_minor = 0 and p.refunded_minor = 0
        when 'PRE_AUTHORIZED' then p.captured_minor = 0 and p.refunded_minor = 0 and p.authorized_at is not null
        when 'CANCELED' then p.captured_minor = 0 and p.refunded_minor = 0 and p.authorized_at is not null
        when 'SUCCEEDED' then p.captured_minor > 0 and p.refunded_minor = 0
        when 'PARTIALLY_REFUNDED' then p.refunded_minor > 0 and p.refunded_minor < p.captured_minor
        when 'REFUNDED' then p.captured_minor > 0 and p.refunded_minor = p.captured_minor
      end
      or (p.refunded_minor = p.captured_minor and p.captured_minor > 0) <> (p.state = 'REFUNDED')
      or (p.authorized_at is not null and p.capture_method <> 'RESERVATION')`,
  },
  {
    name: "terminal_states_never_left",
    rule:
      "the event history only takes allowed steps (13 -> 2|10, 2|16 -> 16|4; nothing after 3, 10 or 4) " +
      "and ends in the payment's state",
    query: () => sql`
      with h as (
        select n.payment_id, n.id,
               (n.payload->'data'->>'statusCode')::int as code,
               lag((n.payload->'data'->>'statusCode')::int) over w as prev,
               row_number() over (partition by n.payment_id order by n.id desc) as from_end
        from notifications n
        where n.payment_id is not null
        window w as (partition by n.payment_id order by n.id)
      )
      select h.payment_id::text as subject,
             case when h.from_end = 1 and h.code <> ${STATE_CODE}
                  then format('last event %s says %s but the payment is %s', h.id, h.code, p.state)
                  else format('event %s goes %s -> %s', h.id, coalesce(h.prev::text, 'start'), h.code) end as detail
      from h
      join payments p on p.id = h.payment_id and ${WITHIN_EVENT_RETENTION}
      where not case
          when h.prev is null then h.code in (2, 3, 13)
          when h.prev = 13 then h.code in (2, 10)
          when h.prev in (2, 16) then h.code in (16, 4)
          else false
        end
        or (h.from_end = 1 and h.code <> ${STATE_CODE})`,
  },
  {
    name: "one_event_per_state_change",
    rule:
      "every change into 2, 3, 13, 10, 4 or 16 has exactly one event: " +
      "one 13 per authorization, one 2 per capture, one 3 per failure, one 10 per release, one 4 per refund",
    query: () => sql`
      with e as (
        select payment_id,
               count(*) filter (where (payload->'data'->>'remoteStatusCode')::int = 13) as n13,
               count(*) filter (where (payload->'data'->>'remoteStatusCode')::int = 2) as n2,
               count(*) filter (where (payload->'data'->>'remoteStatusCode')::int = 3) as n3,
               count(*) filter (where (payload->'data'->>'remoteStatusCode')::int = 10) as n10,
               count(*) filter (where (payload->'data'->>'remoteStatusCode')::int = 4) as n4
        from notifications where payment_id is not null group by payment_id
      ), r as (select payment_id, count(*) as n from payment_refunds group by payment_id),
      x as (
        select p.id, coalesce(e.n13, 0) as n13, coalesce(e.n2, 0) as n2, coalesce(e.n3, 0) as n3,
               coalesce(e.n10, 0) as n10, coalesce(e.n4, 0) as n4,
               (p.authorized_at is not null)::int as w13, (p.captured_minor > 0)::int as w2,
               (p.state = 'FAILED')::int as w3, (p.state = 'CANCELED')::int as w10, coalesce(r.n, 0) as w4
        from payments p left join e on e.payment_id = p.id left join r on r.payment_id = p.id
        where ${WITHIN_EVENT_RETENTION}
      )
      select id::text as subject,
             format('events 13:%s 2:%s 3:%s 10:%s 4:%s, state changes 13:%s 2:%s 3:%s 10:%s 4:%s',
                    n13, n2, n3, n10, n4, w13, w2, w3, w10, w4) as detail
      from x
      where (n13, n2, n3, n10, n4) <> (w13, w2, w3, w10, w4)
      union all
      select n.id, format('event for payment %s, which does not exist', n.payment_id)
      from notifications n
      where n.payment_id is not null and not exists (select 1 from payments p where p.id = n.payment_id)`,
  },
  {
    name: "wallet_account_ledger",
    rule:
      "per wallet account: one opening entry, balance = opening + entries, " +
      "held = entries' holds = open holds, held and available never negative",
    requiresTable: "simulators.wallet_accounts",
    query: () => sql`
      with e as (
        select account_id, sum(balance_delta_minor) as balance, sum(held_delta_minor) as held,
               count(*) filter (where kind = 'opening') as openings
        from simulators.wallet_entries group by account_id
      ), h as (
        select account_id, sum(amount_minor - captured_minor) as held
        from simulators.wallet_holds where status = 'active' group by account_id
      )
      select a.id::text as subject,
             format('balance %s vs entries %s, held %s vs entries %s vs open holds %s, openings %s, available %s',
                    a.balance_minor, coalesce(e.balance, 0), a.held_minor, coalesce(e.held, 0), coalesce(h.held, 0),
                    coalesce(e.openings, 0), a.balance_minor - a.held_minor) as detail
      from simulators.wallet_accounts a
      left join e on e.account_id = a.id
      left join h on h.account_id = a.id
      where a.balance_minor <> coalesce(e.balance, 0) or a.held_minor <> coalesce(e.held, 0)
         or a.held_minor <> coalesce(h.held, 0) or coalesce(e.openings, 0) <> 1
         or a.held_minor < 0 or a.balance_minor - a.held_minor < 0`,
  },
  {
    name: "wallet_books_agree_with_payment",
    rule:
      "per wallet payment whose wallet books are in this database (the sandbox wallet): " +
      "the wallet lost exactly captured - refunded, " +
      "holds exactly the amount while PRE_AUTHORIZED and nothing otherwise",
    requiresTable: "simulators.wallet_accounts",
    query: () => sql`
      with e as (
        select payment_id, -sum(balance_delta_minor) as taken, sum(held_delta_minor) as held
        from simulators.wallet_entries where payment_id is not null group by payment_id
      ), h as (
        select payment_id, count(*) filter (where status = 'active') as active, max(amount_minor) as amount
        from simulators.wallet_holds group by payment_id
      )
      select p.id::text as subject,
             format('state %s, captured %s - refunded %s = %s, wallet took %s, holds %s (active holds %s)', p.state,
                    p.captured_minor, p.refunded_minor, p.captured_minor - p.refunded_minor, coalesce(e.taken, 0),
                    coalesce(e.held, 0), coalesce(h.active, 0)) as detail
      from payments p
      left join e on e.payment_id = p.id
      left join h on h.payment_id = p.id
      where (p.payment_method_code in ${methodCodesOfProvider("wallet")}
             or e.payment_id is not null or h.payment_id is not null)
        -- Only books this database holds: the sandbox wallet's. A production operator's wallet
        -- keeps its ledger on its side (the gateway has no account row for the customer there).
        and exists (select 1 from simulators.wallet_accounts a
                    where a.service_id = p.service_id and a.customer_id = p.customer_id and a.currency = p.currency)
        -- An operation in flight is judged by provider_operations_settled (see card_books_agree_with_payment).
        and not exists (select 1 from provider_operations o
                        where o.payment_id = p.id and o.status in ('pending', 'unknown'))
        and (coalesce(e.taken, 0) <> p.captured_minor - p.refunded_minor
          or coalesce(e.held, 0) <> case when p.state = 'PRE_AUTHORIZED' then p.amount_minor else 0 end
          or coalesce(h.active, 0) <> (p.state = 'PRE_AUTHORIZED')::int
          or (h.amount is not null and h.amount <> p.amount_minor))`,
  },
  {
    name: "card_books_agree_with_payment",
    rule:
      "per card intent: the provider's amount, received, refunded and status " +
      "agree with the payment it was created for; " +
      "a FAILED payment's charge that succeeded anyway is fully reversed; " +
      "an intent a refused proceed left unused moved nothing",
    // A charge that succeeds after the gateway failed or expired its payment is refunded in full
    // (finalize-card-payment.ts, reverseAtProvider): the payment stays FAILED with nothing
    // captured, and the provider keeps the charge and its equal refund.
    requiresTable: "simulators.card_provider_payment_intents",
    query: () => sql`
      with r as (select payment_intent_id, sum(amount_minor) as total
                 from simulators.card_provider_refunds group by payment_intent_id)
      select coalesce(p.id::text, pi.idempotency_key) as subject,
             format('payment %s captured %s refunded %s (ref %s); '
                    || 'intent %s %s amount %s received %s refunded %s (refund rows %s)',
                    coalesce(p.state::text, 'missing'), p.captured_minor, p.refunded_minor, p.provider_reference,
                    pi.id, pi.status, pi.amount_minor, pi.amount_received_minor, pi.amount_refunded_minor,
                    coalesce(r.total, 0)) as detail
      from simulators.card_provider_payment_intents pi
      -- The gateway names its payment in the intent's metadata (the idempotency key is scoped
      -- per provider account, as Stripe scopes it).
      left join payments p on p.id::text = pi.metadata->>'paymentId'
      left join r on r.payment_intent_id = pi.id
      where pi.metadata ? 'paymentId'
        -- A money call the provider may have applied and the gateway not yet settled is judged by
        -- provider_operations_settled (its bound), not here: the books agree once it settles.
        and not exists (select 1 from provider_operations o
                         where o.payment_id = p.id and o.status in ('pending', 'unknown'))
        -- An intent created for a proceed the payment's transaction then refused stays unused
        -- (proceed-with-card.ts): no money moved and the payment never referenced it.
        and not (p.provider_reference is null and pi.status in ('requires_payment_method', 'canceled')
                 and pi.amount_received_minor = 0 and pi.amount_refunded_minor = 0 and coalesce(r.total, 0) = 0)
        and (p.id is null
          or p.provider_reference is distinct from pi.id
          or pi.amount_minor <> p.amount_minor or pi.currency <> p.currency
          or pi.amount_refunded_minor <> coalesce(r.total, 0)
          or case when p.state = 'FAILED' and pi.status = 'succeeded'
               then p.captured_minor <> 0 or p.refunded_minor <> 0
                 or pi.amount_received_minor = 0 or pi.amount_refunded_minor <> pi.amount_received_minor
               else pi.amount_received_minor <> p.captured_minor or pi.amount_refunded_minor <> p.refunded_minor
             end
          or case p.state
               when 'SUCCEEDED' then pi.status <> 'succeeded'
               when 'PARTIALLY_REFUNDED' then pi.status <> 'succeeded'
               when 'REFUNDED' then pi.status <> 'succeeded'
               when 'PRE_AUTHORIZED'
                 then pi.status <> 'requires_capture' or pi.amount_capturable_minor <> p.amount_minor
               when 'CANCELED' then pi.status <> 'canceled'
               when 'FAILED' then pi.status = 'requires_capture'
               else pi.status in ('succeeded', 'requires_capture')
             end)`,
  },
  {
    name: "provider_payments_have_succeeded_payment",
    rule:
      "no provider payment completed without a succeeded payment: " +
      "a redirect provider's order that keeps money (paid, less what it gave back) " +
      "belongs to a payment that succeeded and still holds at least that much (captured - refunded)",
    // The providers' books are the simulators' (sandbox); in production the provider keeps them
    // and the gateway's side is judged by provider_operations_settled. The later of the two tables.
    requiresTable: "simulators.clictopay_orders",
    query: ({ reconciliationBoundSeconds }) => sql`
      with o as (
        select 'SATIM' as method, order_id, order_status,
               case when order_status in ('2', '4') then amount_minor - refunded_minor else 0 end as kept
        from simulators.satim_orders
        union all
        select 'CLICTOPAY', order_id, order_status,
               case when order_status in ('2', '4') then deposited_minor - refunded_minor else 0 end
        from simulators.clictopay_orders
      )
      select p.id::text as subject,
             format('%s order %s (status %s) keeps %s; payment %s captured %s refunded %s',
                    o.method, o.order_id, o.order_status,
                    o.kept, p.state, p.captured_minor, p.refunded_minor) as detail
      from o
      join redirect_payments rp on rp.provider_order_id = o.order_id and rp.method_code = o.method
      join payments p on p.id = rp.payment_id
      where o.kept > 0
        and (p.state not in ('SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED')
             or o.kept > p.captured_minor - p.refunded_minor)
        -- A refund or a late completion's reversal in flight: judged by provider_operations_settled.
        and not exists (select 1 from provider_operations op
                        where op.payment_id = p.id and op.status in ('pending', 'unknown'))
        -- An order the gateway has not settled yet (the buyer paid and has not come back): the
        -- reconciliation job settles it within its bound once the payment can no longer wait.
        and not (rp.finished_at is null
                 and greatest(rp.registered_at, p.expires_at + make_interval(secs => ${EXPIRY_GRACE_MS / 1000}))
                     > now() - make_interval(secs => ${reconciliationBoundSeconds}))`,
  },
  {
    name: "redirect_refunds_agree_with_provider",
    rule:
      "per redirect provider order: " +
      "what the provider refunded equals the refunds the gateway settled as done for that order " +
      "(a refund called twice, or a refund the gateway failed that the provider made, breaks it)",
    // The providers' books are the simulators' (sandbox), as for provider_payments_have_succeeded_payment.
    requiresTable: "simulators.cmi_orders",
    query: () => sql`
      with o as (
        select 'SATIM' as method, order_id, refunded_minor from simulators.satim_orders
        union all
        select 'CLICTOPAY', order_id, refunded_minor from simulators.clictopay_orders
        union all
        select 'CMI', oid, refunded_minor from simulators.cmi_orders
      ),
      g as (
        select payment_id, request->>'orderId' as order_id, sum(amount_minor) as refunded
        from provider_operations
        where kind = 'refund' and status = 'succeeded'
        group by payment_id, request->>'orderId'
      )
      select p.id::text as subject,
             format('%s order %s refunded %s at the provider; the gateway settled refunds of %s', o.method, o.order_id,
                    o.refunded_minor, coalesce(g.refunded, 0)) as detail
      from o
      join redirect_payments rp on rp.provider_order_id = o.order_id and rp.method_code = o.method
      join payments p on p.id = rp.payment_id
      left join g on g.payment_id = p.id and g.order_id = o.order_id
      where o.refunded_minor <> coalesce(g.refunded, 0)
        -- A refund in flight: judged by provider_operations_settled until it settles.
        and not exists (select 1 from provider_operations op
                        where op.payment_id = p.id and op.status in ('pending', 'unknown'))`,
  },
  {
    name: "events_within_retry_schedule",
    rule: "no event is past its retry schedule without a final outcome, and a delivered event has a 2xx attempt",
    query: ({ retrySchedule, deliverySlackSeconds }) => {
      // The waits only ever grow by up to 10 % (retry-schedule.ts).
      const spanSeconds = retrySchedule.reduce((sum, seconds) => sum + seconds, 0) * 1.1 + deliverySlackSeconds;
      return sql`
        select n.id as subject,
               format('payment %s, %s, %s attempts, created %s, next attempt %s', coalesce(n.payment_id::text, '-'),
                      n.status, n.attempt_count, n.created_at, n.next_attempt_at) as detail
        from notifications n
        where (n.status = 'pending'
               and (n.attempt_count > ${retrySchedule.length + 1}
                 or n.created_at < now() - make_interval(secs => ${spanSeconds})
                 or n.next_attempt_at < now() - make_interval(secs => ${deliverySlackSeconds})))
           or (n.status = 'delivered' and not exists (
                 select 1 from notification_attempts a
                 where a.notification_id = n.id and a.response_status between 200 and 299))`;
    },
  },
  {
    name: "provider_operations_settled",
    // A QR request's charge waits for the customer until the payment's grace is over; its bound runs from then.
    rule: "no provider operation stays unsettled longer than the reconciliation bound",
    requiresTable: "provider_operations",
    query: ({ reconciliationBoundSeconds }) => sql`
      select o.id as subject,
             format('payment %s, %s %s %s, %s attempts, created %s', coalesce(o.payment_id::text, '-'), o.provider,
                    o.kind, o.status, o.attempts, o.created_at) as detail
      from provider_operations o
      left join payments p on p.id = o.payment_id and o.request ? 'qrRequestId'
      where o.status in ('pending', 'unknown')
        and greatest(o.created_at, p.expires_at + make_interval(secs => ${EXPIRY_GRACE_MS / 1000}))
            < now() - make_interval(secs => ${reconciliationBoundSeconds})`,
  },
];
