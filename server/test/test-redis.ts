import { randomUUID } from 'node:crypto';

// The one rule for tests that need Redis (run, fail when services are required, else skip)
// lives in server/test/test-services.ts; re-exported for the tests that import it from here.
export { describeWithRedis } from './test-services.ts';

/** A key no other test, run or worker shares the same Redis with. */
export const uniqueKey = (label: string): string => `${label}-${randomUUID()}`;
