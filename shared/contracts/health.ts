import { z } from 'zod';

export const healthResponse = z.object({ status: z.literal('ok') });
export const readinessResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['up', 'down']),
});
