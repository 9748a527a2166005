import { z } from 'zod';
import { errorEnvelope } from './errors.ts';

export const healthResponse = z.object({ status: z.literal('ok') });
export const readinessResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['up', 'down']),
});
/** 503: the database is down, or the drain's error envelope once a shutdown has begun. */
export const readinessUnavailableResponse = z.union([readinessResponse, errorEnvelope]);
