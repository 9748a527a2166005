#!/usr/bin/env bash
# Everything CI runs, in order: type check and lint, unit and integration tests on PGlite
# and again on a real PostgreSQL server, the production build, and the browser journeys in
# Debian's Chromium. Services are private to this run and stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/services.sh

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

results=.tmp/test-results
rm -rf "$results" && mkdir -p "$results"

step "system packages"
ensure_packages
trap stop_services EXIT
start_postgres
start_redis
# The services are there: a test that finds its service missing fails rather than skips
# (server/test/test-services.ts).
export REQUIRE_TEST_SERVICES=1
# The apps under test print their errors (a 500's cause, a deadlock) and nothing else: a
# failure in CI then says why.
export TEST_LOG_LEVEL=error

step "type check, lint, format"
npm run check

step "unit and integration tests on PGlite"
env -u TEST_DATABASE_URL TEST_PGLITE_PASS=1 npx vitest run --project node --reporter=default --reporter=json --outputFile="$results/vitest-pglite.json"

step "unit and integration tests on PostgreSQL"
npx vitest run --project node --reporter=default --reporter=json --outputFile="$results/vitest-postgres.json"

step "component tests in Chromium"
npx vitest run --project browser --reporter=default --reporter=json --outputFile="$results/vitest-browser.json"

step "production build"
npm run build

# Its own stage: two app processes behind HAProxy on a PostgreSQL and a Redis of their own,
# under load while processes, the database and the mail server fail (scripts/chaos).
step "fault suite"
npm run chaos

step "end-to-end tests in Chromium"
PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.json" npx playwright test --reporter=list,json

step "summary"
node --import tsx scripts/test-summary.ts "$results"
