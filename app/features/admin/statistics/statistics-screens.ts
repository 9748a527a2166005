// The admin dashboard and the three statistics screens as one chunk. Every lazy route puts
// its list of chunks to preload into the first bundle (app/routes/screens.ts), which the
// public home's 145 KB budget pays for; four routes on one chunk repeat one list, which
// compresses to almost nothing, and make no chunk of their shared code. The price: the
// dashboard, where staff land, brings recharts with it (cached for the statistics screens).
export { DashboardPage } from '../dashboard/dashboard-page.tsx';
export { AnalyticsPage } from './analytics-page.tsx';
export { EarningsPage } from './earnings-page.tsx';
export { SubscriptionsStatsPage } from './subscriptions-page.tsx';
