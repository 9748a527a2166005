import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../http/app-error.ts';
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

/**
 * The test clock, as a processor's test mode has: billing time moves forward on request and
 * what came due (renewals) runs before the answer. Never in production, where billing time
 * is the wall clock's.
 */
export function testClockRoutes(app: FastifyInstance, context: SandboxContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const notInProduction = async () => {
    if (app.config.env === 'production') throw new AppError('not_found');
  };
  const now = () => ({ now: context.clock.now().toISOString() });

  routes.get(
    TEST_CLOCK_PATH,
    { schema: { hide: true }, config: { access: 'public' }, onRequest: notInProduction },
    async () => now(),
  );

  routes.post(
    `${TEST_CLOCK_PATH}/advance`,
    {
      schema: { hide: true, body: advanceBody },
      config: { access: 'public' },
      onRequest: notInProduction,
    },
    async (request) => {
      const { days = 0, seconds = 0 } = request.body;
      await context.clock.advance(Math.round((days * DAY_SECONDS + seconds) * 1000));
      return now();
    },
  );
}
