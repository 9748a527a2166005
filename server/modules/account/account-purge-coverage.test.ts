import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import {
  auditLog,
  cardSources,
  contentItems,
  contentMedia,
  contentRevisions,
  contentSettings,
  contentTranslations,
  couponHolds,
  couponRedemptions,
  coupons,
  dataExports,
  entitlements,
  familyGroups,
  familyMembers,
  gatewayCustomers,
  idempotencyKeys,
  invoices,
  mainPageSeo,
  notificationLists,
  notificationSends,
  notificationSubscriptions,
  oauthAccounts,
  oidcModels,
  oneTimeTokens,
  passkeyChallenges,
  passkeys,
  payments,
  products,
  referralCodes,
  referrals,
  refunds,
  sessions,
  subscriptions,
  twoFactorRecoveryCodes,
  users,
  vpnAccounts,
  vpnDevices,
  vpnUsagePeriods,
} from '../../db/schema/index.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createUser } from '../../test/test-users.ts';
import { purgeDeletedAccounts } from './account-purge.ts';
import { ERASED_BUYER, PURGE_KEEP_LIST } from './purge-keep-list.ts';

// Issue 25: the purge covers every table that refers to a person. The list of such columns
// is read from the database catalog, not written here: every foreign key to users, and
// every column named like a person's id. So a table added later is held to the rule too:
// its rows go with the person, or it is on the keep-list with its reason.

const { app } = await createTestApp();
const db = app.db;

/** Names a column may carry a person's id under without a foreign key. */
const PERSON_COLUMNS = ['user_id', 'owner_id', 'actor_id', 'subject_id', 'account_id'];

interface PersonColumn {
  table: string;
  column: string;
}

const referringColumns = () =>
  queryRows<PersonColumn>(
    db,
    sql`select cl.relname as "table", a.attname as "column"
          from pg_constraint c
          join pg_class cl on cl.oid = c.conrelid
          join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey)
         where c.contype = 'f' and c.confrelid = 'public.users'::regclass
        union
        select table_name::text, column_name::text
          from information_schema.columns
         where table_schema = 'public' and table_name <> 'users'
           and column_name in (${sql.join(
             PERSON_COLUMNS.map((name) => sql`${name}`),
             sql`, `,
           )})
        order by 1, 2`,
  );

const quoted = (name: string) => sql.raw(`"${name.replaceAll('"', '""')}"`);

async function primaryKeyOf(table: string): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select a.attname as name
          from pg_index i
          join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
         where i.indrelid = ${`public.${table}`}::regclass and i.indisprimary
         order by a.attnum`,
  );
  if (rows.length === 0) throw new Error(`${table} has no primary key to follow its rows by`);
  return rows.map((row) => row.name);
}

/** The rows of `table` whose `column` names the person, each as its primary key. */
async function rowsNaming({ table, column }: PersonColumn, userId: number): Promise<string[]> {
  const key = await primaryKeyOf(table);
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select json_build_array(${sql.join(key.map(quoted), sql`, `)})::text as key
          from ${quoted(table)} where ${quoted(column)}::text = ${String(userId)}`,
  );
  return rows.map((row) => row.key);
}

/** Which of `keys` still exist in `table`, and what their `column` holds now. */
async function stillThere({ table, column }: PersonColumn, keys: string[]) {
  const key = await primaryKeyOf(table);
  return queryRows<{ value: string | null }>(
    db,
    sql`select ${quoted(column)}::text as value from ${quoted(table)}
         where json_build_array(${sql.join(key.map(quoted), sql`, `)})::text in (${sql.join(
           keys.map((value) => sql`${value}`),
           sql`, `,
         )})`,
  );
}

/**
 * A person with a row in every table that can name one: what a customer has (sessions,
 * billing, VPN, family, referrals, lists, exports …) and what staff leave behind (content,
 * refunds, mailings). Straight in the database: what is tested is the purge, not the flows.
 */
async function personEverywhere() {
  const person = await createUser(db, { name: 'Pat Purged', photo: null });
  const friend = await createUser(db);
  const now = new Date();
  const later = new Date(now.getTime() + 86_400_000);
  const id = person.id;

  await db.insert(sessions).values({ userId: id, tokenHash: `s-${id}`, expiresAt: later });
  await db.insert(oneTimeTokens).values({
    type: 'password_reset',
    userId: id,
    email: person.email,
    tokenHash: `t-${id}`,
    expiresAt: later,
  });
  await db.insert(oauthAccounts).values({ userId: id, provider: 'google', subject: `g-${id}` });
  await db.insert(twoFactorRecoveryCodes).values({ userId: id, codeHash: `c-${id}` });
  await db.insert(passkeys).values({
    userId: id,
    credentialId: `cred-${id}`,
    publicKey: 'pk',
    name: 'Laptop',
  });
  await db.insert(passkeyChallenges).values({
    idHash: `pc-${id}`,
    purpose: 'register',
    userId: id,
    challenge: 'x',
    expiresAt: later,
  });
  await db.insert(oidcModels).values({
    model: 'Grant',
    id: `grant-${id}`,
    payload: {},
    accountId: String(id),
  });

  const [product] = await db
    .insert(products)
    .values({ serviceId: 1, plan: 'standard', name: 'Plan', amount: 999, currency: 'USD' })
    .returning();
  const [coupon] = await db
    .insert(coupons)
    .values({ code: `PURGE${id}`, name: 'Purge test', duration: 'once', percentOff: 10 })
    .returning();
  if (!product || !coupon) throw new Error('catalog rows not made');
  const [subscription] = await db
    .insert(subscriptions)
    .values({
      userId: id,
      gateway: 'sandbox',
      gatewayRef: `sub-${id}`,
      serviceId: 1,
      productId: product.id,
      status: 'active',
      paymentMethodType: 'card',
      paymentMethodRef: `card-${id}`,
      currency: 'USD',
      amount: 999,
      gatewayUpdatedAt: now,
    })
    .returning();
  const [invoice] = await db
    .insert(invoices)
    .values({
      number: `INV-PURGE-${id}`,
      userId: id,
      subscriptionId: subscription?.id,
      gateway: 'sandbox',
      gatewayRef: `in-${id}`,
      status: 'paid',
      currency: 'USD',
      subtotal: 826,
      taxTotal: 173,
      total: 999,
      amountPaid: 999,
      lang: 'en',
      buyer: { name: 'Pat Purged', email: person.email, lines: ['Keizersgracht 1', 'Amsterdam'] },
      country: 'NL',
      gatewayUpdatedAt: now,
    })
    .returning();
  if (!invoice) throw new Error('invoice not made');
  const [payment] = await db
    .insert(payments)
    .values({
      invoiceId: invoice.id,
      userId: id,
      gateway: 'sandbox',
      gatewayRef: `pay-${id}`,
      status: 'succeeded',
      amount: 999,
      currency: 'USD',
      paymentMethodRef: `card-${id}`,
    })
    .returning();
  // A refund the person gave as staff, on someone else's payment.
  await db.insert(refunds).values({
    paymentId: payment?.id ?? 0,
    invoiceId: invoice.id,
    gateway: 'sandbox',
    gatewayRef: `re-${id}`,
    amount: 100,
    currency: 'USD',
    createdBy: id,
  });
  await db.insert(cardSources).values({
    userId: id,
    gateway: 'sandbox',
    gatewayRef: `card-${id}`,
    brand: 'visa',
    last4: '4242',
    expMonth: 12,
    expYear: 2030,
  });
  await db
    .insert(gatewayCustomers)
    .values({ userId: id, gateway: 'sandbox', customerRef: `c-${id}` });
  await db.insert(couponRedemptions).values({ couponId: coupon.id, userId: id });
  await db.insert(couponHolds).values({ couponId: coupon.id, userId: id, createdAt: now });
  await db.insert(idempotencyKeys).values({ key: `k-${id}`, userId: id });
  await db.insert(entitlements).values({
    userId: id,
    source: 'manual',
    sourceRef: `staff:${id}`,
    startsAt: now,
  });

  await db
    .insert(vpnDevices)
    .values({ userId: id, name: 'Phone', publicKey: `key-${id}`, location: 'NL' });
  await db.insert(vpnAccounts).values({
    userId: id,
    deviceLimit: 5,
    periodStart: now,
    periodEnd: later,
  });
  await db
    .insert(vpnUsagePeriods)
    .values({ userId: id, periodStart: now, periodEnd: later, rx: 1, tx: 2 });

  // Their own family, and a seat in a friend's; an invite to their address waits in another.
  const [own] = await db.insert(familyGroups).values({ ownerId: id }).returning();
  const [friends] = await db.insert(familyGroups).values({ ownerId: friend.id }).returning();
  const third = await createUser(db);
  const [another] = await db.insert(familyGroups).values({ ownerId: third.id }).returning();
  await db.insert(familyMembers).values([
    { groupId: own?.id ?? 0, email: friend.email, userId: friend.id, inviteExpiresAt: later },
    { groupId: friends?.id ?? 0, email: person.email, userId: id, inviteExpiresAt: later },
    { groupId: another?.id ?? 0, email: person.email, inviteExpiresAt: later },
  ]);
  await db.insert(referralCodes).values({ userId: id, code: `ref-${id}` });
  await db.insert(referrals).values([
    { referrerId: id, referredId: third.id },
    { referrerId: friend.id, referredId: id },
  ]);

  const [list] = await db.select().from(notificationLists).limit(1);
  if (!list) throw new Error('no notification list (migration 0014 makes them)');
  await db.insert(notificationSubscriptions).values({ listId: list.id, userId: id });
  await db
    .insert(notificationSends)
    .values({ listId: list.id, subject: 'News', body: 'Hello', createdBy: id });

  const [item] = await db.insert(contentItems).values({ kind: 'post', authorId: id }).returning();
  const [translation] = await db
    .insert(contentTranslations)
    .values({
      itemId: item?.id ?? 0,
      space: 'blog',
      lang: 'en',
      title: 'Purged',
      slug: `purged-${id}`,
      authorId: id,
      updatedById: id,
    })
    .returning();
  await db.insert(contentRevisions).values({
    translationId: translation?.id ?? 0,
    snapshot: {} as typeof contentRevisions.$inferInsert.snapshot,
    authorId: id,
  });
  await db.insert(contentMedia).values({
    storageKey: `media/purge${id}abcdefgh.webp`,
    width: 1,
    height: 1,
    bytes: 1,
    alt: 'x',
    uploadedById: id,
  });
  await db.update(contentSettings).set({ updatedById: id });
  await db.insert(mainPageSeo).values({ page: `purge-${id}`, lang: 'en', updatedById: id });

  const exportKey = `private/data-exports/purge${id}abcdefgh.zip`;
  await app.storage.putStream(exportKey, Readable.from([Buffer.from('PK')]));
  await db.insert(dataExports).values({ userId: id, state: 'ready', fileKey: exportKey });

  await db.insert(auditLog).values({
    action: 'auth.signed_in',
    actorId: id,
    subjectType: 'user',
    subjectId: String(id),
    data: { email: person.email },
  });
  return { person, invoiceId: invoice.id, exportKey };
}

describe('purging an account covers every table that refers to a person', () => {
  it('deletes the rows of every such column, or keeps them as the keep-list says', async () => {
    const columns = await referringColumns();
    // The catalog query finds the tables this issue knows of, so it would find a new one.
    const names = columns.map(({ table, column }) => `${table}.${column}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'sessions.user_id',
        'invoices.user_id',
        'data_exports.user_id',
        'oidc_models.account_id',
        'audit_log.subject_id',
      ]),
    );
    const listedButGone = Object.keys(PURGE_KEEP_LIST).filter((name) => !names.includes(name));
    expect(listedButGone, 'keep-list entries whose column no longer exists').toEqual([]);

    const { person, invoiceId, exportKey } = await personEverywhere();
    const before = new Map<string, string[]>();
    for (const found of columns) {
      before.set(`${found.table}.${found.column}`, await rowsNaming(found, person.id));
    }
    const withoutRows = [...before].filter(([, keys]) => keys.length === 0).map(([name]) => name);
    expect(
      withoutRows,
      'give the person in personEverywhere() a row in each of these, so the purge is tested on it',
    ).toEqual([]);

    await db
      .update(users)
      .set({ deleteAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, person.id));
    expect(await purgeDeletedAccounts(app)).toBeGreaterThanOrEqual(1);

    const notCovered: string[] = [];
    for (const found of columns) {
      const name = `${found.table}.${found.column}`;
      const left = await stillThere(found, before.get(name) ?? []);
      const kept = PURGE_KEEP_LIST[name];
      if (!kept) {
        if (left.length > 0) notCovered.push(`${name}: ${left.length} row(s) outlived the person`);
        continue;
      }
      expect(left, `${name} is on the keep-list: its rows stay`).toHaveLength(
        before.get(name)?.length ?? 0,
      );
      const stillNamed = left.filter((row) => row.value === String(person.id));
      expect(stillNamed.length, `${name}: ${kept.reason}`).toBe(
        kept.reference === 'kept' ? left.length : 0,
      );
    }
    expect(notCovered, 'purge these rows, or keep-list them with a reason').toEqual([]);

    // What the kept rows keep, and what they lose.
    const [invoice] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
    expect(invoice).toMatchObject({
      number: `INV-PURGE-${person.id}`,
      userId: null,
      total: 999,
      taxTotal: 173,
      currency: 'USD',
      country: 'NL',
      status: 'paid',
      buyer: ERASED_BUYER,
    });
    const [payment] = await db.select().from(payments).where(eq(payments.invoiceId, invoiceId));
    expect(payment).toMatchObject({ amount: 999, userId: null, paymentMethodRef: null });
    const audit = JSON.stringify(
      await db
        .select()
        .from(auditLog)
        .where(eq(auditLog.subjectId, String(person.id))),
    );
    expect(audit).not.toContain(person.email);
    // Invites to the address in others' families, which name the person without an id.
    expect(
      await db.select().from(familyMembers).where(eq(familyMembers.email, person.email)),
    ).toEqual([]);
    expect(await app.storage.getStream(exportKey)).toBeUndefined();
  });

  it('gives every kept column a reason', () => {
    for (const [name, kept] of Object.entries(PURGE_KEEP_LIST)) {
      expect(kept.reason.length, name).toBeGreaterThan(20);
    }
  });
});
