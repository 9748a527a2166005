import type { SQL } from 'drizzle-orm';
import { and, asc, eq, isNotNull, or } from 'drizzle-orm';
import { isLang } from '#shared/locales.ts';
import {
  auditLog,
  cardSources,
  countries,
  entitlements,
  invoiceLines,
  invoices,
  notificationLists,
  notificationSubscriptions,
  oauthAccounts,
  passkeys,
  payments,
  products,
  referralCodes,
  referrals,
  sessions,
  subscriptionItems,
  subscriptions,
  type UserRow,
  vpnAccounts,
  vpnDevices,
  vpnUsagePeriods,
} from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { mediaKey } from '../../platform/storage/storage-plugin.ts';
import { invoicePdf, presentInvoice } from '../billing/invoices-service.ts';
import { presentFamilySharing } from '../family-sharing/family-view.ts';
import { presentAuthUser } from '../identity/user-presenter.ts';
import { presentSubscription } from '../notifications/notification-presenter.ts';
import { presentDevice } from '../vpn/device-presenter.ts';
import { selectDevices } from '../vpn/device-rows.ts';
import type { ArchiveFile } from './zip-archive.ts';

// What a person's export holds (issue 25), one JSON file per part of the product, in the
// shapes the API answers where it has one. Each part is named here on purpose, field by
// field or through a presenter: a raw row would carry secrets (password hash, TOTP seed,
// token hashes) or other people's data. Other people appear only as the product already
// shows them to this person (their family group).

const iso = (at: Date | null | undefined) => at?.toISOString() ?? null;

function json(name: string, value: unknown): ArchiveFile {
  return { name, data: Buffer.from(`${JSON.stringify(value, null, 2)}\n`) };
}

async function profile(app: App, user: UserRow) {
  const [country] = user.countryId
    ? await app.db
        .select({ code: countries.code })
        .from(countries)
        .where(eq(countries.id, user.countryId))
    : [];
  const social = await app.db
    .select()
    .from(oauthAccounts)
    .where(eq(oauthAccounts.userId, user.id))
    .orderBy(asc(oauthAccounts.id));
  const keys = await app.db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, user.id))
    .orderBy(asc(passkeys.id));
  return {
    account: presentAuthUser(user),
    language: user.locale,
    country: country?.code ?? null,
    traffic_limit_gb: user.trafficLimitGb,
    blocked_at: iso(user.blockedAt),
    created_at: iso(user.createdAt),
    updated_at: iso(user.updatedAt),
    social_sign_in: social.map((row) => ({
      provider: row.provider,
      email: row.email,
      linked_at: iso(row.createdAt),
    })),
    passkeys: keys.map((row) => ({
      name: row.name,
      synced: row.backedUp,
      created_at: iso(row.createdAt),
      last_used_at: iso(row.lastUsedAt),
    })),
  };
}

async function browserSessions(app: App, userId: number) {
  const rows = await app.db
    .select()
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(asc(sessions.createdAt));
  return {
    sessions: rows.map((row) => ({
      id: row.id,
      ip: row.ip,
      user_agent: row.userAgent,
      signed_in_at: iso(row.createdAt),
      last_seen_at: iso(row.lastSeenAt),
      expires_at: iso(row.expiresAt),
    })),
  };
}

async function vpn(app: App, user: UserRow) {
  const lang = isLang(user.locale) ? user.locale : undefined;
  const devices = await selectDevices(app.db, eq(vpnDevices.userId, user.id) as SQL, lang);
  const [account] = await app.db.select().from(vpnAccounts).where(eq(vpnAccounts.userId, user.id));
  const periods = await app.db
    .select()
    .from(vpnUsagePeriods)
    .where(eq(vpnUsagePeriods.userId, user.id))
    .orderBy(asc(vpnUsagePeriods.periodStart));
  const access = await app.db
    .select()
    .from(entitlements)
    .where(eq(entitlements.userId, user.id))
    .orderBy(asc(entitlements.startsAt));
  return {
    devices: devices.map(presentDevice),
    usage: account
      ? {
          period_start: iso(account.periodStart),
          period_end: iso(account.periodEnd),
          received_bytes: account.periodRx,
          sent_bytes: account.periodTx,
          limit_bytes: account.limitBytes,
          device_limit: account.deviceLimit,
        }
      : null,
    usage_periods: periods.map((row) => ({
      period_start: iso(row.periodStart),
      period_end: iso(row.periodEnd),
      received_bytes: row.rx,
      sent_bytes: row.tx,
    })),
    access: access.map((row) => ({
      source: row.source,
      starts_at: iso(row.startsAt),
      ends_at: iso(row.endsAt),
      revoked_at: iso(row.revokedAt),
    })),
  };
}

async function billing(app: App, userId: number) {
  const rows = await app.db
    .select({ subscription: subscriptions, plan: products.name })
    .from(subscriptions)
    .innerJoin(products, eq(products.id, subscriptions.productId))
    .where(eq(subscriptions.userId, userId))
    .orderBy(asc(subscriptions.createdAt));
  const items = rows.length
    ? await app.db
        .select({ item: subscriptionItems, product: products.name })
        .from(subscriptionItems)
        .innerJoin(subscriptions, eq(subscriptions.id, subscriptionItems.subscriptionId))
        .innerJoin(products, eq(products.id, subscriptionItems.productId))
        .where(eq(subscriptions.userId, userId))
    : [];
  const cards = await app.db
    .select()
    .from(cardSources)
    .where(eq(cardSources.userId, userId))
    .orderBy(asc(cardSources.createdAt));
  return {
    subscriptions: rows.map(({ subscription: row, plan }) => ({
      id: row.id,
      plan,
      gateway: row.gateway,
      status: row.status,
      currency: row.currency,
      amount: row.amount,
      onetime: row.onetime,
      payment_method_type: row.paymentMethodType,
      current_period_start: iso(row.currentPeriodStart),
      current_period_end: iso(row.currentPeriodEnd),
      cancel_at_period_end: row.cancelAtPeriodEnd,
      canceled_at: iso(row.canceledAt),
      ended_at: iso(row.endedAt),
      created_at: iso(row.createdAt),
      items: items
        .filter(({ item }) => item.subscriptionId === row.id)
        .map(({ item, product }) => ({ product, quantity: item.quantity, amount: item.amount })),
    })),
    payment_methods: cards.map((row) => ({
      gateway: row.gateway,
      brand: row.brand,
      last4: row.last4,
      exp_month: row.expMonth,
      exp_year: row.expYear,
      default: row.isDefault,
      added_at: iso(row.createdAt),
    })),
  };
}

/** Numbered invoices (a draft is the gateway's business), oldest first. */
function ownInvoices(app: App, userId: number) {
  return app.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.userId, userId), isNotNull(invoices.number)))
    .orderBy(asc(invoices.issuedAt), asc(invoices.id));
}

const pdfName = (number: string) => `invoices/${number.replace(/[^\w.-]/g, '_')}.pdf`;

async function invoiceList(app: App, rows: Awaited<ReturnType<typeof ownInvoices>>) {
  const list = [];
  for (const row of rows) {
    const lines = await app.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, row.id))
      .orderBy(asc(invoiceLines.id));
    const paid = await app.db
      .select()
      .from(payments)
      .where(eq(payments.invoiceId, row.id))
      .orderBy(asc(payments.id));
    list.push({
      ...presentInvoice(row, lines[0]?.description ?? ''),
      buyer: row.buyer,
      lines: lines.map((line) => ({
        description: line.description,
        quantity: line.quantity,
        unit_amount: line.unitAmount,
        amount: line.amount,
        period_start: iso(line.periodStart),
        period_end: iso(line.periodEnd),
      })),
      payments: paid.map((payment) => ({
        gateway: payment.gateway,
        status: payment.status,
        amount: payment.amount,
        currency: payment.currency,
        failure: payment.failureMessage,
        at: iso(payment.createdAt),
      })),
      pdf: pdfName(row.number ?? ''),
    });
  }
  return { invoices: list };
}

async function referralProgram(app: App, userId: number) {
  const [code] = await app.db.select().from(referralCodes).where(eq(referralCodes.userId, userId));
  const rows = await app.db
    .select()
    .from(referrals)
    .where(or(eq(referrals.referrerId, userId), eq(referrals.referredId, userId)))
    .orderBy(asc(referrals.joinedAt));
  // The friends themselves are their own data: when they joined and what it earned.
  const side = (row: (typeof rows)[number]) => ({
    joined_at: iso(row.joinedAt),
    rewarded_at: iso(row.rewardedAt),
    reward_days: row.rewardDays,
  });
  const joinedThrough = rows.find((row) => row.referredId === userId);
  return {
    code: code?.code ?? null,
    joined_through_a_referral: joinedThrough ? side(joinedThrough) : null,
    friends_referred: rows.filter((row) => row.referrerId === userId).map(side),
  };
}

async function notificationSettings(app: App, userId: number) {
  const rows = await app.db
    .select({ subscription: notificationSubscriptions, list: notificationLists })
    .from(notificationSubscriptions)
    .innerJoin(notificationLists, eq(notificationLists.id, notificationSubscriptions.listId))
    .where(eq(notificationSubscriptions.userId, userId))
    .orderBy(asc(notificationSubscriptions.id));
  return { subscribed_lists: rows.map((row) => presentSubscription(row.subscription, row.list)) };
}

/** What happened to the account or by its hand: the security record as it stands. */
async function auditEntries(app: App, userId: number) {
  const rows = await app.db
    .select()
    .from(auditLog)
    .where(
      or(
        eq(auditLog.actorId, userId),
        and(eq(auditLog.subjectType, 'user'), eq(auditLog.subjectId, String(userId))),
      ),
    )
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  return {
    entries: rows.map((row) => ({
      at: iso(row.createdAt),
      action: row.action,
      // Who acted is theirs to know only as "you", "someone else" (staff, a family owner)
      // or nobody signed in.
      actor: row.actorId === null ? null : row.actorId === userId ? 'you' : 'other',
      subject:
        row.subjectType === 'user' && row.subjectId === String(userId)
          ? 'you'
          : row.subjectType
            ? `${row.subjectType} ${row.subjectId ?? ''}`.trim()
            : null,
      ip: row.ip,
      user_agent: row.userAgent,
      data: row.data,
    })),
  };
}

/**
 * The files of one person's export, made one at a time as the archive asks for them: the
 * JSON parts, the invoices' PDFs and the avatar, then a manifest naming them all.
 */
export async function* exportFiles(
  app: App,
  user: UserRow,
  now: Date,
): AsyncGenerator<ArchiveFile> {
  const names: string[] = [];
  const made = (file: ArchiveFile) => {
    names.push(file.name);
    return file;
  };
  yield made(json('profile.json', await profile(app, user)));
  const avatarKey = mediaKey(user.photo);
  const avatar = avatarKey ? await app.storage.get(avatarKey) : undefined;
  if (avatarKey && avatar) {
    const ext = avatarKey.slice(avatarKey.lastIndexOf('.'));
    yield made({ name: `profile/avatar${ext}`, data: avatar.data, stored: true });
  }
  yield made(json('sessions.json', await browserSessions(app, user.id)));
  yield made(json('vpn.json', await vpn(app, user)));
  yield made(json('subscriptions.json', await billing(app, user.id)));
  const invoiceRows = await ownInvoices(app, user.id);
  yield made(json('invoices.json', await invoiceList(app, invoiceRows)));
  for (const row of invoiceRows) {
    const { pdf } = await invoicePdf(app, user.id, row.id);
    yield made({ name: pdfName(row.number ?? ''), data: pdf, stored: true });
  }
  yield made(json('referrals.json', await referralProgram(app, user.id)));
  yield made(json('family.json', await presentFamilySharing(app.db, user, now)));
  yield made(json('notifications.json', await notificationSettings(app, user.id)));
  yield made(json('audit-log.json', await auditEntries(app, user.id)));
  yield json('manifest.json', {
    account_id: user.id,
    generated_at: now.toISOString(),
    files: names,
  });
}
