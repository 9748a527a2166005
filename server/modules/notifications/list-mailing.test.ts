import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { empEndpoints as emp } from '#shared/contracts/notifications.ts';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import {
  notificationLists,
  notificationSends,
  notificationSubscriptions,
} from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { endpointClient } from '../../test/api-client.ts';
import { TEST_QUEUE_TIMINGS } from '../../test/test-app.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { sessionFor } from '../../test/test-sessions.ts';
import { startTestSmtp } from '../../test/test-smtp.ts';
import { createUser } from '../../test/test-users.ts';
import { until } from '../../test/wait-until.ts';
import { DEFAULT_LISTS } from './default-lists.ts';

// A mailing survives its process: two mails a second, one batch saved, then the process fails
// mid-mailing and stops; a new process on the same database finishes it from the next batch,
// so every subscriber gets the message exactly once.
const smtp = await startTestSmtp();
const database = await createTestDatabase();
afterAll(async () => {
  await smtp.close();
  await database.close();
});

const env = { SMTP_URL: smtp.url, NOTIFICATION_MAILS_PER_SECOND: '2' };
async function start(): Promise<App> {
  const app = await buildApp(testConfig(env), { jobs: [], queue: TEST_QUEUE_TIMINGS, database });
  await app.ready();
  return app;
}

describe('a mailing interrupted by a failing process', () => {
  it('resumes in a new process after the last saved batch, sending nobody the message twice', async () => {
    const first = await start();
    const news = DEFAULT_LISTS[0].uuid;
    const [list] = await first.db
      .select()
      .from(notificationLists)
      .where(eq(notificationLists.uuid, news));
    if (!list) throw new Error('no default list');
    const readers = [];
    for (let i = 0; i < 5; i += 1) readers.push(await createUser(first.db));
    await first.db
      .insert(notificationSubscriptions)
      .values(readers.map((reader) => ({ listId: list.id, userId: reader.id })));
    // The first process dies on the third mail, the first of its second batch.
    let calls = 0;
    const sendList = first.mailer.sendList.bind(first.mailer);
    first.mailer.sendList = async (message) => {
      calls += 1;
      if (calls === 3) throw new Error('connection to the mail relay lost');
      return sendList(message);
    };
    const admin = await sessionFor(first, await createUser(first.db, { role: 'ADMIN' }));
    const queued = await endpointClient(first)(emp.send, {
      cookie: admin.cookie,
      body: { listUuid: news, subject: 'Resumable', body: 'Hello **again**.' },
    });
    expect(queued.status, queued.text).toBe(201);
    const sendId = queued.data.send.send_id;
    await until(() => calls >= 3, 'the first process to fail');
    const progress = async () =>
      (await first.db.select().from(notificationSends).where(eq(notificationSends.id, sendId)))[0];
    expect(await progress()).toMatchObject({ status: 'sending', sent: 2, failed: 0 });
    await first.close();
    expect(smtp.messages).toHaveLength(2);

    const second = await start();
    try {
      await until(
        async () =>
          (
            await second.db.select().from(notificationSends).where(eq(notificationSends.id, sendId))
          )[0]?.status === 'done',
        'the second process to finish the mailing',
        20_000,
      );
      const [done] = await second.db
        .select()
        .from(notificationSends)
        .where(eq(notificationSends.id, sendId));
      expect(done).toMatchObject({ sent: 5, failed: 0, total: 5 });
      const received = smtp.messages.flatMap((mail) => mail.envelope.to).sort();
      expect(received).toEqual(readers.map((reader) => reader.email).sort());
    } finally {
      await second.close();
    }
  }, 40_000);
});
