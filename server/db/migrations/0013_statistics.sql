CREATE TABLE "statistics_conversion_months" (
	"month" date PRIMARY KEY NOT NULL,
	"started" integer DEFAULT 0 NOT NULL,
	"converted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statistics_daily_country_takings" (
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"country" text NOT NULL,
	"gross" bigint DEFAULT 0 NOT NULL,
	"refunds" bigint DEFAULT 0 NOT NULL,
	"payments" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "statistics_daily_country_takings_day_currency_country_pk" PRIMARY KEY("day","currency","country")
);
--> statement-breakpoint
CREATE TABLE "statistics_daily_takings" (
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"gateway" "gateway_name" NOT NULL,
	"gross" bigint DEFAULT 0 NOT NULL,
	"refunds" bigint DEFAULT 0 NOT NULL,
	"payments" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "statistics_daily_takings_day_currency_gateway_pk" PRIMARY KEY("day","currency","gateway")
);
--> statement-breakpoint
CREATE TABLE "statistics_mrr_months" (
	"month" date NOT NULL,
	"currency" text NOT NULL,
	"mrr" bigint DEFAULT 0 NOT NULL,
	"new" bigint DEFAULT 0 NOT NULL,
	"expansion" bigint DEFAULT 0 NOT NULL,
	"contraction" bigint DEFAULT 0 NOT NULL,
	"churn" bigint DEFAULT 0 NOT NULL,
	"reactivation" bigint DEFAULT 0 NOT NULL,
	"paying" integer DEFAULT 0 NOT NULL,
	"churned" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "statistics_mrr_months_month_currency_pk" PRIMARY KEY("month","currency")
);
--> statement-breakpoint
CREATE TABLE "statistics_mrr_subscription_months" (
	"subscription_id" integer NOT NULL,
	"currency" text NOT NULL,
	"month" date NOT NULL,
	"mrr" bigint DEFAULT 0 NOT NULL,
	"new" bigint DEFAULT 0 NOT NULL,
	"expansion" bigint DEFAULT 0 NOT NULL,
	"contraction" bigint DEFAULT 0 NOT NULL,
	"churn" bigint DEFAULT 0 NOT NULL,
	"reactivation" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "statistics_mrr_subscription_months_subscription_id_currency_month_pk" PRIMARY KEY("subscription_id","currency","month")
);
--> statement-breakpoint
CREATE TABLE "statistics_subscription_starts" (
	"subscription_id" integer PRIMARY KEY NOT NULL,
	"month" date NOT NULL,
	"converted" boolean NOT NULL
);
--> statement-breakpoint
-- Written by hand with INCLUDE (drizzle-kit cannot say it): this month's MRR reads last
-- month's rows and the invoices paying now from the indexes alone, no heap visits.
CREATE INDEX "statistics_mrr_subscription_months_month_idx" ON "statistics_mrr_subscription_months" USING btree ("month") INCLUDE ("subscription_id", "currency", "mrr");--> statement-breakpoint
CREATE INDEX "invoices_paid_period_end_idx" ON "invoices" USING btree ("period_end") INCLUDE ("period_start", "subscription_id", "currency", "total", "tax_total", "amount_paid", "amount_refunded", "id") WHERE "invoices"."status" = 'paid' and "invoices"."subscription_id" is not null;--> statement-breakpoint
-- Everything below is written by hand (drizzle-kit knows no functions or triggers). The
-- statistics rollups are kept by these statement-level triggers, in the transaction of the
-- change: checkout, a webhook, a sweep or a seed's bulk insert of thousands of rows alike
-- (one aggregated upsert per statement, not one per row). Upserts go in key order, so two
-- transactions meeting on the same rows wait for each other instead of deadlocking. Days and
-- months are UTC whatever the session's time zone.

-- What one month of a paid period is worth: a yearly plan's amount / 12, a quarterly one's / 3;
-- a period shorter than four weeks (daily, weekly plans) scaled up to an average month.
CREATE FUNCTION statistics_monthly_rate(amount bigint, period_start timestamptz, period_end timestamptz)
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  -- One expression without FROM, so the planner inlines it: called per invoice, a function
  -- call each would cost more than the rest of the query.
  SELECT CASE
    WHEN period_end - period_start >= interval '28 days'
      THEN round(amount::numeric / greatest(1,
        round(extract(epoch FROM period_end - period_start) / (30.436875 * 86400))))
    ELSE round(amount::numeric * (30.436875 * 86400)
      / greatest(extract(epoch FROM period_end - period_start), 86400))
  END::bigint
$$;
--> statement-breakpoint
-- Rebuilds the MRR months and the conversion of the given subscriptions from their invoices
-- (a few dozen rows each), and moves the monthly sums by the difference. A subscription pays
-- MRR at a month's end when one of its paid, not wholly refunded invoices has a period
-- (start, end] that holds that instant; the latest-starting one gives the rate. One-time and
-- bonus subscriptions are not recurring revenue.
CREATE FUNCTION statistics_refresh_subscriptions(ids integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  SELECT array_agg(DISTINCT id ORDER BY id) INTO ids FROM unnest(ids) AS id WHERE id IS NOT NULL;
  IF ids IS NULL THEN RETURN; END IF;
  -- Two transactions rebuilding the same subscription take turns (the second then reads the
  -- first's invoices). A bulk insert takes one lock for all, not one per subscription.
  IF cardinality(ids) > 64 THEN
    PERFORM pg_advisory_xact_lock(727113, 0);
  ELSE
    PERFORM pg_advisory_xact_lock_shared(727113, 0);
    PERFORM pg_advisory_xact_lock(727113, id) FROM unnest(ids) AS id ORDER BY id;
  END IF;

  WITH spans AS (
    SELECT i.id, i.subscription_id, i.currency, i.period_start, i.period_end,
      statistics_monthly_rate(i.total - i.tax_total, i.period_start, i.period_end) AS rate
    -- Joined to the ids (not `= ANY`): the subscription index, whatever the statistics say.
    FROM unnest(ids) AS wanted(id)
    JOIN invoices i ON i.subscription_id = wanted.id
    JOIN subscriptions s ON s.id = i.subscription_id
    WHERE i.status = 'paid'
      AND i.amount_refunded < i.amount_paid AND i.total - i.tax_total > 0
      AND i.period_end > i.period_start
      AND NOT s.onetime AND s.gateway <> 'bonus'
  ), ends AS (
    -- Each month whose last instant a period holds: month ends B with start < B <= end.
    SELECT DISTINCT ON (sp.subscription_id, sp.currency, b.month_end)
      sp.subscription_id, sp.currency, (b.month_end - interval '1 month')::date AS month, sp.rate
    FROM spans sp
    CROSS JOIN LATERAL generate_series(
      date_trunc('month', sp.period_start AT TIME ZONE 'UTC') + interval '1 month',
      date_trunc('month', sp.period_end AT TIME ZONE 'UTC'),
      interval '1 month') AS b(month_end)
    WHERE sp.rate > 0
    ORDER BY sp.subscription_id, sp.currency, b.month_end, sp.period_start DESC, sp.id DESC
  ), runs AS (
    SELECT e.*,
      lag(e.month) OVER w AS prev_month, lag(e.rate) OVER w AS prev_rate,
      lead(e.month) OVER w AS next_month, row_number() OVER w AS nth
    FROM ends e WINDOW w AS (PARTITION BY e.subscription_id, e.currency ORDER BY e.month)
  ), fresh AS (
    SELECT subscription_id, currency, month, rate AS mrr,
      CASE WHEN nth = 1 THEN rate ELSE 0 END AS new,
      CASE WHEN prev_month = (month - interval '1 month')::date
        THEN greatest(rate - prev_rate, 0) ELSE 0 END AS expansion,
      CASE WHEN prev_month = (month - interval '1 month')::date
        THEN greatest(prev_rate - rate, 0) ELSE 0 END AS contraction,
      0::bigint AS churn,
      CASE WHEN nth > 1 AND prev_month <> (month - interval '1 month')::date
        THEN rate ELSE 0 END AS reactivation
    FROM runs
    UNION ALL
    -- The month after a run of paid months: it stopped paying then.
    SELECT subscription_id, currency, (month + interval '1 month')::date, 0, 0, 0, 0, rate, 0
    FROM runs
    WHERE next_month IS NULL OR next_month <> (month + interval '1 month')::date
  ), held AS (
    SELECT m.* FROM unnest(ids) AS wanted(id)
    JOIN statistics_mrr_subscription_months m ON m.subscription_id = wanted.id
  ), diff AS (
    SELECT subscription_id, currency, month,
      f.mrr AS f_mrr, f.new AS f_new, f.expansion AS f_expansion,
      f.contraction AS f_contraction, f.churn AS f_churn, f.reactivation AS f_reactivation,
      h.mrr AS h_mrr, h.new AS h_new, h.expansion AS h_expansion,
      h.contraction AS h_contraction, h.churn AS h_churn, h.reactivation AS h_reactivation
    FROM fresh f FULL JOIN held h USING (subscription_id, currency, month)
    WHERE (f.mrr, f.new, f.expansion, f.contraction, f.churn, f.reactivation)
      IS DISTINCT FROM (h.mrr, h.new, h.expansion, h.contraction, h.churn, h.reactivation)
  ), gone AS (
    DELETE FROM statistics_mrr_subscription_months m USING diff d
    WHERE d.f_mrr IS NULL AND m.subscription_id = d.subscription_id
      AND m.currency = d.currency AND m.month = d.month
  ), changed AS (
    UPDATE statistics_mrr_subscription_months m SET
      mrr = d.f_mrr, new = d.f_new, expansion = d.f_expansion,
      contraction = d.f_contraction, churn = d.f_churn, reactivation = d.f_reactivation
    FROM diff d
    WHERE d.f_mrr IS NOT NULL AND d.h_mrr IS NOT NULL AND m.subscription_id = d.subscription_id
      AND m.currency = d.currency AND m.month = d.month
  ), added AS (
    INSERT INTO statistics_mrr_subscription_months
      (subscription_id, currency, month, mrr, new, expansion, contraction, churn, reactivation)
    SELECT subscription_id, currency, month,
      f_mrr, f_new, f_expansion, f_contraction, f_churn, f_reactivation
    FROM diff WHERE h_mrr IS NULL
  )
  INSERT INTO statistics_mrr_months AS t
    (month, currency, mrr, new, expansion, contraction, churn, reactivation, paying, churned)
  SELECT month, currency,
    sum(coalesce(f_mrr, 0) - coalesce(h_mrr, 0)),
    sum(coalesce(f_new, 0) - coalesce(h_new, 0)),
    sum(coalesce(f_expansion, 0) - coalesce(h_expansion, 0)),
    sum(coalesce(f_contraction, 0) - coalesce(h_contraction, 0)),
    sum(coalesce(f_churn, 0) - coalesce(h_churn, 0)),
    sum(coalesce(f_reactivation, 0) - coalesce(h_reactivation, 0)),
    count(*) FILTER (WHERE f_mrr > 0) - count(*) FILTER (WHERE h_mrr > 0),
    count(*) FILTER (WHERE f_churn > 0) - count(*) FILTER (WHERE h_churn > 0)
  FROM diff
  GROUP BY month, currency
  ORDER BY month, currency
  ON CONFLICT (month, currency) DO UPDATE SET
    mrr = t.mrr + excluded.mrr, new = t.new + excluded.new,
    expansion = t.expansion + excluded.expansion,
    contraction = t.contraction + excluded.contraction,
    churn = t.churn + excluded.churn, reactivation = t.reactivation + excluded.reactivation,
    paying = t.paying + excluded.paying, churned = t.churned + excluded.churned;

  -- Conversion: every ordered subscription by the month it started; converted once an
  -- invoice of it is paid (the product has no free trials: the first payment converts).
  WITH fresh AS (
    SELECT s.id AS subscription_id,
      date_trunc('month', s.created_at AT TIME ZONE 'UTC')::date AS month,
      EXISTS (SELECT 1 FROM invoices i WHERE i.subscription_id = s.id AND i.status = 'paid')
        AS converted
    FROM unnest(ids) AS wanted(id) JOIN subscriptions s ON s.id = wanted.id
    WHERE s.gateway <> 'bonus'
  ), held AS (
    SELECT st.* FROM unnest(ids) AS wanted(id)
    JOIN statistics_subscription_starts st ON st.subscription_id = wanted.id
  ), diff AS (
    SELECT subscription_id, f.month AS f_month, f.converted AS f_converted,
      h.month AS h_month, h.converted AS h_converted
    FROM fresh f FULL JOIN held h USING (subscription_id)
    WHERE (f.month, f.converted) IS DISTINCT FROM (h.month, h.converted)
  ), gone AS (
    DELETE FROM statistics_subscription_starts s USING diff d
    WHERE d.f_month IS NULL AND s.subscription_id = d.subscription_id
  ), changed AS (
    UPDATE statistics_subscription_starts s SET month = d.f_month, converted = d.f_converted
    FROM diff d
    WHERE d.f_month IS NOT NULL AND d.h_month IS NOT NULL AND s.subscription_id = d.subscription_id
  ), added AS (
    INSERT INTO statistics_subscription_starts (subscription_id, month, converted)
    SELECT subscription_id, f_month, f_converted FROM diff WHERE h_month IS NULL
  )
  INSERT INTO statistics_conversion_months AS t (month, started, converted)
  SELECT month, sum(started), sum(converted) FROM (
    SELECT f_month AS month, 1 AS started, f_converted::int AS converted
    FROM diff WHERE f_month IS NOT NULL
    UNION ALL
    SELECT h_month, -1, -(h_converted::int) FROM diff WHERE h_month IS NOT NULL
  ) AS moves
  GROUP BY month
  ORDER BY month
  ON CONFLICT (month) DO UPDATE SET
    started = t.started + excluded.started, converted = t.converted + excluded.converted;
END
$$;
--> statement-breakpoint
-- Invoices: takings on the day paid, per gateway and per buyer's country, and the MRR and
-- conversion of their subscriptions. `changes` is the statement's rows, new ones counted in
-- (+1) and replaced or deleted ones out (-1); an update that leaves every figure where it was
-- writes nothing.
CREATE FUNCTION statistics_invoices_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows'
  END;
BEGIN
  EXECUTE format($sql$
    WITH changes AS (%s), paid AS (
      SELECT sign, (paid_at AT TIME ZONE 'UTC')::date AS day, currency, gateway,
        coalesce(country, '') AS country, amount_paid::bigint AS gross
      FROM changes WHERE status = 'paid' AND paid_at IS NOT NULL
    )
    INSERT INTO statistics_daily_takings AS t (day, currency, gateway, gross, payments)
    SELECT day, currency, gateway, sum(sign * gross), sum(sign)
    FROM paid GROUP BY day, currency, gateway
    HAVING sum(sign * gross) <> 0 OR sum(sign) <> 0
    ORDER BY day, currency, gateway
    ON CONFLICT (day, currency, gateway) DO UPDATE SET
      gross = t.gross + excluded.gross, payments = t.payments + excluded.payments
  $sql$, changes);

  EXECUTE format($sql$
    WITH changes AS (%s), paid AS (
      SELECT sign, (paid_at AT TIME ZONE 'UTC')::date AS day, currency,
        coalesce(country, '') AS country, amount_paid::bigint AS gross
      FROM changes WHERE status = 'paid' AND paid_at IS NOT NULL
    )
    INSERT INTO statistics_daily_country_takings AS t (day, currency, country, gross, payments)
    SELECT day, currency, country, sum(sign * gross), sum(sign)
    FROM paid GROUP BY day, currency, country
    HAVING sum(sign * gross) <> 0 OR sum(sign) <> 0
    ORDER BY day, currency, country
    ON CONFLICT (day, currency, country) DO UPDATE SET
      gross = t.gross + excluded.gross, payments = t.payments + excluded.payments
  $sql$, changes);

  IF TG_OP = 'UPDATE' THEN
    -- An invoice's refunds count under its buyer's country: they move with it.
    INSERT INTO statistics_daily_country_takings AS t (day, currency, country, refunds)
    SELECT day, currency, country, sum(amount) FROM (
      SELECT (r.created_at AT TIME ZONE 'UTC')::date AS day, r.currency,
        coalesce(n.country, '') AS country, r.amount::bigint AS amount
      FROM new_rows n JOIN old_rows o USING (id) JOIN refunds r ON r.invoice_id = n.id
      WHERE n.country IS DISTINCT FROM o.country
      UNION ALL
      SELECT (r.created_at AT TIME ZONE 'UTC')::date, r.currency,
        coalesce(o.country, ''), -r.amount::bigint
      FROM new_rows n JOIN old_rows o USING (id) JOIN refunds r ON r.invoice_id = n.id
      WHERE n.country IS DISTINCT FROM o.country
    ) AS moved
    GROUP BY day, currency, country
    HAVING sum(amount) <> 0
    ORDER BY day, currency, country
    ON CONFLICT (day, currency, country) DO UPDATE SET refunds = t.refunds + excluded.refunds;

    PERFORM statistics_refresh_subscriptions(array_agg(v.subscription_id)) FROM (
      SELECT n.subscription_id, o.subscription_id AS old_subscription_id
      FROM new_rows n JOIN old_rows o USING (id)
      WHERE (n.subscription_id, n.status, n.currency, n.total, n.tax_total, n.amount_paid,
          n.amount_refunded, n.period_start, n.period_end)
        IS DISTINCT FROM (o.subscription_id, o.status, o.currency, o.total, o.tax_total,
          o.amount_paid, o.amount_refunded, o.period_start, o.period_end)
    ) AS moved, LATERAL (VALUES (moved.subscription_id), (moved.old_subscription_id)) AS v(subscription_id);
  ELSE
    EXECUTE format('SELECT statistics_refresh_subscriptions(array_agg(subscription_id)) FROM (%s) AS c',
      changes);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Refunds: on the day given, per gateway and per the invoice's buyer's country.
CREATE FUNCTION statistics_refunds_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows'
  END;
BEGIN
  EXECUTE format($sql$
    WITH changes AS (%s)
    INSERT INTO statistics_daily_takings AS t (day, currency, gateway, refunds)
    SELECT (created_at AT TIME ZONE 'UTC')::date AS day, currency, gateway,
      sum(sign * amount::bigint)
    FROM changes GROUP BY 1, 2, 3
    HAVING sum(sign * amount::bigint) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (day, currency, gateway) DO UPDATE SET refunds = t.refunds + excluded.refunds
  $sql$, changes);

  EXECUTE format($sql$
    WITH changes AS (%s)
    INSERT INTO statistics_daily_country_takings AS t (day, currency, country, refunds)
    SELECT (c.created_at AT TIME ZONE 'UTC')::date AS day, c.currency,
      coalesce(i.country, '') AS country, sum(c.sign * c.amount::bigint)
    FROM changes c JOIN invoices i ON i.id = c.invoice_id
    GROUP BY 1, 2, 3
    HAVING sum(c.sign * c.amount::bigint) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (day, currency, country) DO UPDATE SET refunds = t.refunds + excluded.refunds
  $sql$, changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- An invoice going away takes its refunds first, while it can still tell their country (the
-- foreign key's own cascade would run once the invoice is gone). The books never delete
-- invoices; this keeps the rollups right if someone does.
CREATE FUNCTION statistics_invoice_deleting() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM refunds WHERE invoice_id = OLD.id;
  RETURN OLD;
END
$$;
--> statement-breakpoint
-- Subscriptions: a new or removed one starts (or no longer starts) a month; what decides its
-- MRR or conversion besides its invoices rarely changes.
CREATE FUNCTION statistics_subscriptions_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM statistics_refresh_subscriptions(array_agg(id)) FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM statistics_refresh_subscriptions(array_agg(id)) FROM old_rows;
  ELSE
    PERFORM statistics_refresh_subscriptions(array_agg(n.id))
    FROM new_rows n JOIN old_rows o USING (id)
    WHERE (n.created_at, n.onetime, n.gateway) IS DISTINCT FROM (o.created_at, o.onetime, o.gateway);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER statistics_invoices_inserted AFTER INSERT ON invoices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION statistics_invoices_changed();
--> statement-breakpoint
CREATE TRIGGER statistics_invoices_updated AFTER UPDATE ON invoices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION statistics_invoices_changed();
--> statement-breakpoint
CREATE TRIGGER statistics_invoices_deleted AFTER DELETE ON invoices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION statistics_invoices_changed();
--> statement-breakpoint
CREATE TRIGGER statistics_invoice_deleting BEFORE DELETE ON invoices
  FOR EACH ROW EXECUTE FUNCTION statistics_invoice_deleting();
--> statement-breakpoint
CREATE TRIGGER statistics_refunds_inserted AFTER INSERT ON refunds
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION statistics_refunds_changed();
--> statement-breakpoint
CREATE TRIGGER statistics_refunds_updated AFTER UPDATE ON refunds
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION statistics_refunds_changed();
--> statement-breakpoint
CREATE TRIGGER statistics_refunds_deleted AFTER DELETE ON refunds
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION statistics_refunds_changed();
--> statement-breakpoint
CREATE TRIGGER statistics_subscriptions_inserted AFTER INSERT ON subscriptions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION statistics_subscriptions_changed();
--> statement-breakpoint
CREATE TRIGGER statistics_subscriptions_updated AFTER UPDATE ON subscriptions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION statistics_subscriptions_changed();
--> statement-breakpoint
CREATE TRIGGER statistics_subscriptions_deleted AFTER DELETE ON subscriptions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION statistics_subscriptions_changed();
--> statement-breakpoint
-- The books written before this migration.
INSERT INTO statistics_daily_takings (day, currency, gateway, gross, refunds, payments)
SELECT day, currency, gateway, sum(gross), sum(refunds), sum(payments) FROM (
  SELECT (paid_at AT TIME ZONE 'UTC')::date AS day, currency, gateway,
    amount_paid::bigint AS gross, 0::bigint AS refunds, 1 AS payments
  FROM invoices WHERE status = 'paid' AND paid_at IS NOT NULL
  UNION ALL
  SELECT (created_at AT TIME ZONE 'UTC')::date, currency, gateway, 0, amount, 0 FROM refunds
) AS takings GROUP BY day, currency, gateway;
--> statement-breakpoint
INSERT INTO statistics_daily_country_takings (day, currency, country, gross, refunds, payments)
SELECT day, currency, country, sum(gross), sum(refunds), sum(payments) FROM (
  SELECT (paid_at AT TIME ZONE 'UTC')::date AS day, currency, coalesce(country, '') AS country,
    amount_paid::bigint AS gross, 0::bigint AS refunds, 1 AS payments
  FROM invoices WHERE status = 'paid' AND paid_at IS NOT NULL
  UNION ALL
  SELECT (r.created_at AT TIME ZONE 'UTC')::date, r.currency, coalesce(i.country, ''), 0, r.amount, 0
  FROM refunds r JOIN invoices i ON i.id = r.invoice_id
) AS takings GROUP BY day, currency, country;
--> statement-breakpoint
SELECT statistics_refresh_subscriptions(array_agg(id)) FROM subscriptions;
