CREATE INDEX "entitlements_updated_idx" ON "entitlements" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "entitlements_starts_idx" ON "entitlements" USING btree ("starts_at");--> statement-breakpoint
CREATE INDEX "entitlements_ends_idx" ON "entitlements" USING btree ("ends_at");--> statement-breakpoint
CREATE INDEX "subscriptions_updated_idx" ON "subscriptions" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "users_updated_at_idx" ON "users" USING btree ("updated_at");