import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  notificationLists,
  notificationSends,
  notificationSubscriptions,
  users,
} from '../../db/schema/index.ts';
import { DEFAULT_LISTS } from './default-lists.ts';

const DEMO_CUSTOMER = 'customer@example.com';
const DEMO_ADMIN = 'admin@example.com';
const [NEWS, , SECURITY, STATUS] = DEFAULT_LISTS;

/**
 * `npm start`'s demo: the demo customer reads product news and security notices, the admin
 * service status, and the news list shows one message already sent to them.
 */
export async function seedDemoNotifications(db: Database): Promise<void> {
  const people = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, [DEMO_CUSTOMER, DEMO_ADMIN]));
  const customer = people.find((person) => person.email === DEMO_CUSTOMER);
  const admin = people.find((person) => person.email === DEMO_ADMIN);
  if (!customer || !NEWS || !SECURITY || !STATUS) return;
  const lists = await db
    .select()
    .from(notificationLists)
    .where(inArray(notificationLists.uuid, [NEWS.uuid, SECURITY.uuid, STATUS.uuid]));
  const id = (uuid: string) => lists.find((list) => list.uuid === uuid)?.id;
  const news = id(NEWS.uuid);
  const security = id(SECURITY.uuid);
  const status = id(STATUS.uuid);
  if (!news || !security || !status) return;
  const [already] = await db
    .select({ id: notificationSends.id })
    .from(notificationSends)
    .where(and(eq(notificationSends.listId, news), eq(notificationSends.subject, DEMO_SUBJECT)));
  if (already) return;
  await db.transaction(async (tx) => {
    await tx
      .insert(notificationSubscriptions)
      .values([
        { listId: news, userId: customer.id },
        { listId: security, userId: customer.id },
        ...(admin ? [{ listId: status, userId: admin.id }] : []),
      ])
      .onConflictDoNothing();
    const sentAt = new Date(Date.now() - 3 * 24 * 3_600_000);
    await tx.insert(notificationSends).values({
      listId: news,
      subject: DEMO_SUBJECT,
      body: DEMO_BODY,
      createdBy: admin?.id ?? null,
      status: 'done',
      total: 1,
      sent: 1,
      failed: 0,
      createdAt: sentAt,
      startedAt: sentAt,
      finishedAt: new Date(sentAt.getTime() + 2_000),
    });
  });
}

const DEMO_SUBJECT = 'New servers in Lisbon and Oslo';
const DEMO_BODY = [
  '## Two new locations',
  '',
  'Our network now reaches **Lisbon** and **Oslo**. Both are open to every plan today:',
  '',
  '- pick them in the app’s location list',
  '- or let *Fastest server* choose for you',
  '',
  'Questions? [Visit the help center](https://example.com/help).',
].join('\n');
