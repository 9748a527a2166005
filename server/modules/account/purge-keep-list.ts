import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type InvoiceParty, invoices, oidcModels, payments } from '../../db/schema/index.ts';

/**
 * What a kept row does with its reference to the purged person: `cleared` (its foreign key
 * sets it to null) or `kept` (a bare number naming a row that no longer exists, which
 * identifies nobody once the account is gone).
 */
export type KeptReference = 'cleared' | 'kept';

export interface KeptRows {
  reference: KeptReference;
  /** Why the rows outlive the person, and what of the person is taken out of them. */
  reason: string;
}

/**
 * Every column that refers to a person and whose rows the purge keeps, by `table.column`.
 * Every other such column's rows are deleted with the person (ON DELETE CASCADE, or by the
 * purge itself). account-purge-coverage.test.ts reads the database catalog for every column
 * referring to a user and holds each to one or the other, so a table added later cannot
 * slip by: it fails until its rows are purged or listed here with a reason.
 */
export const PURGE_KEEP_LIST: Readonly<Record<string, KeptRows>> = {
  'invoices.user_id': {
    reference: 'cleared',
    reason:
      'Tax law requires invoices to be kept (for years, numbered without gaps): number, dates, lines, amounts, VAT and country stay; the buyer’s name, e-mail and address are erased.',
  },
  'payments.user_id': {
    reference: 'cleared',
    reason:
      'The bookkeeping of a kept invoice: amounts, status and dates stay; the card it was charged to is erased.',
  },
  'refunds.created_by': {
    reference: 'cleared',
    reason: 'A refund belongs to its invoice; the staff member who gave it is forgotten.',
  },
  'coupon_redemptions.user_id': {
    reference: 'cleared',
    reason: 'A coupon’s uses count against its limit and in the sales figures, unnamed.',
  },
  'coupon_holds.user_id': {
    reference: 'cleared',
    reason: 'A use held by an unfinished order, unnamed until the billing sweep gives it back.',
  },
  'notification_sends.created_by': {
    reference: 'cleared',
    reason: 'Staff’s record of a message sent to a list; who sent it is forgotten.',
  },
  'content_items.author_id': {
    reference: 'cleared',
    reason: 'The site’s published content is the company’s; its author is forgotten.',
  },
  'content_translations.author_id': {
    reference: 'cleared',
    reason: 'The site’s published content is the company’s; its author is forgotten.',
  },
  'content_translations.updated_by_id': {
    reference: 'cleared',
    reason: 'The site’s published content is the company’s; its last editor is forgotten.',
  },
  'content_revisions.author_id': {
    reference: 'cleared',
    reason: 'A text’s history stays with the text; who wrote a revision is forgotten.',
  },
  'content_media.uploaded_by_id': {
    reference: 'cleared',
    reason: 'Images the site shows stay; who uploaded them is forgotten.',
  },
  'content_settings.updated_by_id': {
    reference: 'cleared',
    reason: 'Staff’s content settings stay; who last changed them is forgotten.',
  },
  'main_page_seo.updated_by_id': {
    reference: 'cleared',
    reason: 'The main pages’ SEO settings stay; who last changed them is forgotten.',
  },
  'audit_log.actor_id': {
    reference: 'cleared',
    reason:
      'The security record (what happened, when, from where) stays; the link to the person is cut and the addresses in its data are erased.',
  },
  'audit_log.subject_id': {
    reference: 'kept',
    reason:
      'The security record stays, ending with the deletion itself; the bare account number names no one once the account is gone, and the addresses in its data are erased.',
  },
};

/** What an invoice kept for the law shows of a purged buyer: nothing. */
export const ERASED_BUYER: InvoiceParty = { name: '', email: '', lines: [] };

/**
 * Takes the person out of the rows the purge keeps (PURGE_KEEP_LIST), and deletes what refers
 * to them without a foreign key: run in the purge's transaction, before the person's row goes
 * (whose foreign keys then clear the references).
 */
export async function scrubKeptRows(tx: Database, userId: number): Promise<void> {
  // The subscription link is cut here too: the person's subscriptions go with their row, and
  // PostgreSQL refuses one statement whose foreign-key actions update an invoice twice (its
  // person and its subscription), which failed the purge of every customer who had paid.
  await tx
    .update(invoices)
    .set({ buyer: ERASED_BUYER, subscriptionId: null })
    .where(eq(invoices.userId, userId));
  await tx.update(payments).set({ paymentMethodRef: null }).where(eq(payments.userId, userId));
  // The OpenID provider's grants, tokens and sessions name the account by its id as text.
  await tx.delete(oidcModels).where(eq(oidcModels.accountId, String(userId)));
}
