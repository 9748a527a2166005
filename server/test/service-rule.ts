/**
 * What becomes of tests that need real services (Redis, a PostgreSQL server) when the
 * variables pointing at them are unset: they fail where services are required — `npm test`
 * (scripts/test.sh starts them and sets REQUIRE_TEST_SERVICES=1) and any CI — since a skip
 * there would let the behaviour go untested without anyone noticing; elsewhere (a laptop
 * without Redis) they are skipped and say why. Free of any test runner: Vitest files
 * (test-services.ts) and Playwright journeys share it.
 */
export function serviceTestMode(
  variables: readonly string[],
  env: Record<string, string | undefined> = process.env,
): 'run' | 'fail' | 'skip' {
  if (variables.every((variable) => env[variable])) return 'run';
  return servicesRequired(env) ? 'fail' : 'skip';
}

/** Whether this run must have every service and tool its tests need (`npm test`, any CI). */
export function servicesRequired(env: Record<string, string | undefined> = process.env): boolean {
  return env.REQUIRE_TEST_SERVICES === '1' || Boolean(env.CI);
}
