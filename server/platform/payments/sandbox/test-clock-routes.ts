import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SandboxContext } from './sandbox-context.ts';

export const TEST_CLOCK_PATH = '/sandbox/v1/test-clock';

const DAY_SECONDS = 86_400;
/** A year and a bit: enough for any renewal story, small enough to run in one request. */
const MAX_DAYS = 400;

const advanceBody = z
  .object({
    days: z.number().min(0).max(MAX_DAYS).optional(),
    seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_DAYS * DAY_SECONDS)
      .optional(),
  })
  .refine(({ days = 0, seconds = 0 }) => days * DAY_SECONDS + seconds <= MAX_DAYS * DAY_SECONDS, {
    message: `at most ${MAX_DAYS} days at a time`,
  });

/** Staff's: the billing clock is the whole server's, every customer's renewals move with it. */
const ADMIN_ONLY = { access: { permission: 'commerce' } } as const;

/**
 * The test clock, as a processor's test mode has: billing time moves forward on request and
 * what came due (renewals) runs before the answer. Only an admin may read or move it, with
 * the CSRF header like every other write (the auth plugin's gate); moving it renews, charges
 * and mails every customer whose period it passes. Never in production, where billing time
 * is the wall clock's: there the routes do not exist.
 */
export function testClockRoutes(app: FastifyInstance, context: SandboxContext): void {
  if (app.config.env === 'production') return;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const now = () => ({ now: context.clock.now().toISOString() });

  routes.get(TEST_CLOCK_PATH, { schema: { hide: true }, config: ADMIN_ONLY }, async () => now());

  routes.post(
    `${TEST_CLOCK_PATH}/advance`,
    { schema: { hide: true, body: advanceBody }, config: ADMIN_ONLY },
    async (request) => {
      const { days = 0, seconds = 0 } = request.body;
      await context.clock.advance(Math.round((days * DAY_SECONDS + seconds) * 1000));
      return now();
    },
  );
}
