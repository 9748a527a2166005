import type pg from 'pg';

// A million invoices for the statistics benchmark, made by PostgreSQL itself (generate_series,
// a fixed random seed): about 110,000 customers' subscriptions started over three years,
// monthly (85 %) or yearly, in USD, EUR and GBP, on four gateways and fifteen countries
// (one in fifteen without), each paying until it stops (an exponential life, mean 14 months)
// or until now; one in twenty changes price part-way (expansion and contraction), a last
// renewal now and then fails (an open invoice), and 2 % of the paid ones are refunded,
// wholly or in half, within three weeks. Every invoice has its payment. The rows go in as the
// demo seed's do, several thousand per statement, so the rollups' triggers do the work they
// do in production, aggregated per statement.

export const INVOICES = 1_000_000;
const SUBSCRIPTIONS = 125_000;
const CUSTOMERS = 60_000;
/** Subscriptions per insert statement: ~80,000 invoices each. */
const CHUNK = 10_000;

export interface GeneratedBooks {
  invoices: number;
  subscriptions: number;
  payments: number;
  refunds: number;
  /** Seconds spent, in all and per kind of row. */
  seconds: Record<string, number>;
}

async function timed<T>(
  seconds: Record<string, number>,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const result = await work();
  seconds[name] = (seconds[name] ?? 0) + (performance.now() - started) / 1000;
  return result;
}

export async function generateBooks(
  client: pg.ClientBase,
  log: (message: string) => void,
): Promise<GeneratedBooks> {
  const seconds: Record<string, number> = {};
  const started = performance.now();
  await client.query('select setseed(0.1313)');

  await timed(seconds, 'customers', () =>
    client.query(
      `insert into users (email, username, email_verified_at, created_at)
       select 'bench-' || g || '@example.com', 'bench_' || g, now(), now() - interval '3 years'
       from generate_series(1, $1) g`,
      [CUSTOMERS],
    ),
  );

  // The plan of each subscription: when it starts, how long it pays, what it costs.
  await timed(seconds, 'plan', async () => {
    await client.query(`
      create temp table bench_plan as
      with raw as (
        select g as n,
          now() - random() * interval '1105 days' as created_at,
          (array['USD', 'USD', 'USD', 'EUR', 'EUR', 'GBP'])[1 + floor(random() * 6)::int] as currency,
          (array['stripe', 'stripe', 'stripe', 'paypal', 'paypal', 'appstore', 'cryptomus'])
            [1 + floor(random() * 7)::int]::gateway_name as gateway,
          random() < 0.15 as yearly,
          (array['US', 'DE', 'FR', 'GB', 'NL', 'ES', 'IT', 'CA', 'BR', 'JP', 'IN', 'PL', 'SE', 'AU', null])
            [1 + floor(random() * 15)::int] as country,
          1 + floor(random() * ${CUSTOMERS})::int as user_id,
          1 + floor(-ln(1 - random()) * 14)::int as life_months,
          case when random() < 0.05 then 0.5 + random() else 1 end as change_factor,
          random() as change_at,
          random() < 0.3 as last_fails
        from generate_series(1, ${SUBSCRIPTIONS}) g
      ), sized as (
        select raw.*,
          case when yearly
            then least(ceil(life_months / 12.0)::int,
              1 + floor(extract(epoch from now() - created_at) / (365.25 * 86400))::int)
            else least(life_months,
              1 + floor(extract(epoch from now() - created_at) / (30.436875 * 86400))::int)
          end as periods
        from raw
      )
      select sized.*, sum(periods) over (order by n) as upto from sized`);
    // Exactly INVOICES invoices: the plans past the millionth are dropped, the last one cut.
    await client.query(`delete from bench_plan where upto - periods >= ${INVOICES}`);
    await client.query(
      `update bench_plan set periods = periods - (upto - ${INVOICES}) where upto > ${INVOICES}`,
    );
    await client.query('create index on bench_plan (n)');
  });

  await timed(seconds, 'subscriptions', () =>
    client.query(`
      with products_by as (
        select distinct on (currency, interval) id, currency, interval, amount, service_id
        from products where not additional and interval is not null and interval_count = 1
          and name not like 'Family%'
        order by currency, interval, service_id, id
      )
      insert into subscriptions (user_id, gateway, gateway_ref, service_id, product_id, status,
        payment_method_type, currency, amount, current_period_start, current_period_end,
        canceled_at, ended_at, gateway_updated_at, created_at)
      select p.user_id, p.gateway, 'bench-sub-' || p.n,
        case p.gateway when 'paypal' then 2 when 'appstore' then 4 when 'cryptomus' then 6 else 1 end,
        coalesce(pr.id, (select min(id) from products)),
        case when ends.at > now() then 'active' else 'expired' end::subscription_status,
        case p.gateway when 'paypal' then 'paypal' when 'appstore' then 'in_app'
          when 'cryptomus' then 'crypto' else 'card' end::payment_method_type,
        p.currency, coalesce(pr.amount, 999),
        ends.at - p.step, ends.at,
        case when ends.at <= now() then ends.at end, case when ends.at <= now() then ends.at end,
        p.created_at, p.created_at
      from (select *, case when yearly then interval '1 year' else interval '1 month' end as step
        from bench_plan) p
      cross join lateral (select p.created_at + p.step * p.periods as at) ends
      left join products_by pr on pr.currency = p.currency
        and pr.interval = case when p.yearly then 'year' else 'month' end::billing_interval
      order by p.n`),
  );
  const { rows: bounds } = await client.query<{ last: number }>(
    'select max(n)::int as last from bench_plan',
  );
  const last = bounds[0]?.last ?? 0;

  for (let from = 1; from <= last; from += CHUNK) {
    await timed(seconds, 'invoices', () =>
      client.query(
        `insert into invoices (user_id, subscription_id, gateway, gateway_ref, status, currency,
          subtotal, total, amount_paid, period_start, period_end, lang, buyer, country, paid_at,
          issued_at, gateway_updated_at, created_at)
        select s.user_id, s.id, s.gateway, 'bench-in-' || p.n || '-' || k,
          case when failed then 'open' else 'paid' end::invoice_status, s.currency,
          price, price, case when failed then 0 else price end,
          period_start, period_start + p.step, 'en',
          jsonb_build_object('name', 'Bench', 'email', 'bench@example.com', 'lines', '[]'::jsonb),
          p.country, case when failed then null else period_start + interval '3 minutes' end,
          period_start, period_start, period_start
        from (select *, case when yearly then interval '1 year' else interval '1 month' end as step
          from bench_plan where n between $1 and $2) p
        join subscriptions s on s.gateway = p.gateway and s.gateway_ref = 'bench-sub-' || p.n
        cross join lateral generate_series(0, p.periods - 1) k
        cross join lateral (select
          p.created_at + p.step * k as period_start,
          (k = p.periods - 1 and p.periods > 1 and p.last_fails
            and p.created_at + p.step * (k + 1) <= now()) as failed,
          round(s.amount * case when k >= p.periods * p.change_at then p.change_factor else 1 end)::int
            as price) i
        order by p.n, k`,
        [from, from + CHUNK - 1],
      ),
    );
    log(`invoices for plans ${from}–${Math.min(from + CHUNK - 1, last)} written`);
  }

  await timed(seconds, 'payments', () =>
    client.query(`
      insert into payments (invoice_id, user_id, gateway, gateway_ref, status, amount, currency,
        created_at)
      select id, user_id, gateway, 'bench-pi-' || id,
        case when status = 'paid' then 'succeeded' else 'failed' end::payment_status,
        total, currency, coalesce(paid_at, issued_at)
      from invoices where gateway_ref like 'bench-in-%'`),
  );

  // Refunds: the rows, then the invoices' refunded amounts, as a gateway's refund writes both.
  await timed(seconds, 'refunds', async () => {
    await client.query(`
      insert into refunds (payment_id, invoice_id, gateway, gateway_ref, amount, currency, created_at)
      select pay.id, i.id, i.gateway, 'bench-re-' || i.id,
        case when random() < 0.5 then i.amount_paid else i.amount_paid / 2 end, i.currency,
        least(now(), i.paid_at + random() * interval '21 days')
      from invoices i join payments pay on pay.invoice_id = i.id
      where i.status = 'paid' and i.gateway_ref like 'bench-in-%' and random() < 0.02`);
    await client.query(`
      update invoices i set amount_refunded = r.amount
      from refunds r where r.invoice_id = i.id and r.gateway_ref like 'bench-re-%'`);
  });
  // As autovacuum leaves a settled database: statistics, and the visibility map that lets
  // the covering indexes answer without visiting the table.
  await timed(seconds, 'vacuum', () => client.query('vacuum analyze'));
  await client.query('drop table bench_plan');

  const { rows } = await client.query<Record<string, number>>(`select
    (select count(*)::int from invoices) as invoices,
    (select count(*)::int from subscriptions) as subscriptions,
    (select count(*)::int from payments) as payments,
    (select count(*)::int from refunds) as refunds`);
  seconds.total = (performance.now() - started) / 1000;
  const counts = rows[0] ?? {};
  return {
    invoices: counts.invoices ?? 0,
    subscriptions: counts.subscriptions ?? 0,
    payments: counts.payments ?? 0,
    refunds: counts.refunds ?? 0,
    seconds,
  };
}
