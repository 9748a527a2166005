// The three statistics screens as one chunk, with recharts: they share the charts, and
// whoever opens one usually opens the others.
export { AnalyticsPage } from './analytics-page.tsx';
export { EarningsPage } from './earnings-page.tsx';
export { SubscriptionsStatsPage } from './subscriptions-page.tsx';
