import { eq } from 'drizzle-orm';
import type { Lang } from '#shared/locales.ts';
import { formatMoney } from '#shared/money.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { products, type UserRow, users } from '../../db/schema/index.ts';
import type { TemplateData } from '../../platform/mail/mail-texts.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { userLocale } from '../identity/mail-links.ts';

/** What a billing mail needs: the recipient, their language, and ways to format for them. */
export interface BillingRecipient {
  user: UserRow;
  lang: Lang;
  money(amount: number, currency: string): string;
  date(at: Date | null): string;
  link(path: string): string;
}

export async function recipient(
  deps: { db: Database; config: Config },
  userId: number,
): Promise<BillingRecipient | null> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const lang = userLocale(deps.config, user);
  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' });
  return {
    user,
    lang,
    money: (amount, currency) => formatMoney({ amount, currency }, lang),
    date: (at) => (at ? dates.format(at) : ''),
    link: (path) => `${deps.config.appUrl}/${lang}/${path}`,
  };
}

export async function planName(db: Database, productId: number): Promise<string> {
  const [row] = await db
    .select({ name: products.name })
    .from(products)
    .where(eq(products.id, productId));
  return row?.name ?? '';
}

export function sendBillingMail<T extends keyof TemplateData & `billing_${string}`>(
  mailer: Mailer,
  to: BillingRecipient,
  template: T,
  data: Omit<TemplateData[T], 'name'>,
): Promise<void> {
  return mailer.send({
    template,
    to: to.user.email,
    locale: to.lang,
    data: { name: to.user.name ?? to.user.username, ...data } as TemplateData[T],
  } as Parameters<Mailer['send']>[0]);
}
