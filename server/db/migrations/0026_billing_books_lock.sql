-- Billing's shared rows (the year's invoice counter, the statistics months and days that
-- triggers keep) were locked in whatever order a transaction reached them: an order that
-- numbered its invoice first and one that changed a subscription first could each hold what
-- the other needed (deadlock, seen under concurrent checkouts). Every statement that changes
-- invoices, subscriptions or refunds, and every invoice number taken, now first takes one
-- transaction-level lock, so those rows are always reached in the same order.
CREATE FUNCTION billing_books_lock() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7248130012);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER billing_books_lock_invoices BEFORE INSERT OR UPDATE OR DELETE ON invoices
  FOR EACH STATEMENT EXECUTE FUNCTION billing_books_lock();
--> statement-breakpoint
CREATE TRIGGER billing_books_lock_subscriptions BEFORE INSERT OR UPDATE OR DELETE ON subscriptions
  FOR EACH STATEMENT EXECUTE FUNCTION billing_books_lock();
--> statement-breakpoint
CREATE TRIGGER billing_books_lock_refunds BEFORE INSERT OR UPDATE OR DELETE ON refunds
  FOR EACH STATEMENT EXECUTE FUNCTION billing_books_lock();
