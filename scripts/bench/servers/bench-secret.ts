/** APP_SECRET of the benchmarked realtime server: the secret the scenario signs with derives from it. */
export const BENCH_APP_SECRET = 'bench-app-secret-not-for-production-0123456789';
