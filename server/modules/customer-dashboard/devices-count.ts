import { count } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { sessions } from '../../db/schema/index.ts';
import { liveSessionsOf } from '../identity/sessions.ts';

/** The signed-in browsers the security page's devices list shows (the same live sessions). */
export async function devicesCount(
  db: Database,
  config: Pick<Config, 'sessionIdleMs'>,
  userId: number,
): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(sessions)
    .where(liveSessionsOf(userId, config));
  return row?.value ?? 0;
}
