import { describe, expect, it } from 'vitest';
import { LANGS, type Lang } from '#shared/locales.ts';
import type { MailContent, TemplateData, TemplateName } from './mail-texts.ts';
import { MAIL_TEXTS, type MailMessage, renderMail, TEMPLATE_NAMES } from './render-mail.tsx';

const APP_URL = 'https://vpn.example.test';
const LINK = `${APP_URL}/en/email/verify?challenge=abc123&source=mail`;

const SAMPLE_DATA: { [T in TemplateName]: TemplateData[T] } = {
  email_verify: { name: 'Nina', link: LINK },
  password_reset: { name: 'Nina', link: LINK, expiresInMinutes: 60 },
  password_set: { name: 'Nina', link: LINK },
  email_change: { name: 'Nina', link: LINK, newEmail: 'nina.new@example.test' },
  password_changed: { name: 'Nina' },
  billing_receipt: {
    name: 'Nina',
    planName: 'Premium 12 months',
    amount: '$59.99',
    invoiceNumber: 'SL-2025-000123',
    periodEnd: 'March 31, 2026',
    link: LINK,
  },
  billing_payment_failed: {
    name: 'Nina',
    planName: 'Premium 12 months',
    amount: '$59.99',
    reason: 'Card declined by the issuer',
    retryOn: 'April 3, 2026',
    graceEndsOn: 'April 10, 2026',
    link: LINK,
  },
  billing_renewal_reminder: {
    name: 'Nina',
    planName: 'Premium 12 months',
    amount: '$59.99',
    renewsOn: 'April 3, 2026',
    link: LINK,
  },
  billing_canceled: {
    name: 'Nina',
    planName: 'Premium 12 months',
    endsOn: 'April 3, 2026',
    link: LINK,
  },
  billing_refunded: { name: 'Nina', amount: '$59.99', invoiceNumber: 'SL-2025-000123', link: LINK },
  family_invite: { name: 'Nina', ownerName: 'Frances', expiresOn: 'April 7, 2026', link: LINK },
  data_export_ready: { name: 'Nina', expiresAt: 'April 7, 2026 at 10:30 UTC', link: LINK },
};

interface Case<T extends TemplateName = TemplateName> {
  template: T;
  variant: string;
  data: TemplateData[T];
}

// The billing mails whose wording turns on a null: the last failed attempt, the canceling
// at once, and a retry that names no end of access.
const VARIANTS: Case[] = [
  ...TEMPLATE_NAMES.map((template) => ({
    template,
    variant: 'default',
    data: SAMPLE_DATA[template],
  })),
  {
    template: 'billing_payment_failed',
    variant: 'last attempt',
    data: { ...SAMPLE_DATA.billing_payment_failed, retryOn: null, graceEndsOn: null },
  },
  {
    template: 'billing_payment_failed',
    variant: 'retry without grace end',
    data: { ...SAMPLE_DATA.billing_payment_failed, graceEndsOn: null },
  },
  {
    template: 'billing_canceled',
    variant: 'at once',
    data: { ...SAMPLE_DATA.billing_canceled, endsOn: null },
  },
];

/** The caller's strings in `data`: untrusted, so shown in the body and never in the subject. */
const userValues = (data: object) =>
  Object.values(data).filter((value): value is string => typeof value === 'string');

const message = <T extends TemplateName>(
  template: T,
  locale: MailMessage['locale'],
  data: TemplateData[T],
) => ({ template, locale, to: 'nina@example.test', data }) as MailMessage;

// React's escaping of text and attribute values.
const escapeHtml = (value: string) =>
  value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#x27;');

const expectedLink = (template: TemplateName, locale: string) =>
  template === 'password_changed' ? `${APP_URL}/${locale}/password/forgot` : LINK;

describe('renderMail', () => {
  const cases = LANGS.flatMap((locale) => VARIANTS.map((variant) => ({ ...variant, locale })));

  it('knows every template', () => {
    expect([...TEMPLATE_NAMES].sort()).toEqual(
      [
        'email_change',
        'email_verify',
        'password_changed',
        'password_reset',
        'password_set',
        'billing_receipt',
        'billing_payment_failed',
        'billing_renewal_reminder',
        'billing_canceled',
        'billing_refunded',
        'family_invite',
        'data_export_ready',
      ].sort(),
    );
  });

  it.each(cases)(
    'renders $template ($variant) in $locale with every text present',
    ({ template, data, locale }) => {
      const content: MailContent = MAIL_TEXTS[locale].templates[template](data as never);
      const texts = MAIL_TEXTS[locale];
      const mail = renderMail(message(template, locale, data), { appUrl: APP_URL });
      const link = expectedLink(template, locale);

      const strings = [
        ...Object.values(content).flat(),
        texts.greeting('Nina'),
        texts.linkHint,
        texts.signature,
        texts.footer,
      ];
      for (const value of strings) expect(typeof value === 'string' && value.trim()).toBeTruthy();
      for (const part of [mail.subject, mail.html, mail.text]) {
        expect(part).not.toMatch(/undefined|null|NaN|\[object |\$\{/);
      }

      expect(mail.subject).toBe(content.subject);
      expect(mail.link).toBe(link);
      expect(mail.html.startsWith('<!DOCTYPE html><html lang="')).toBe(true);
      expect(mail.html).toContain(`lang="${locale}"`);
      expect(mail.html).toContain('Shieldline VPN');
      // The button and the raw link beside it.
      expect(mail.html.split(`href="${escapeHtml(link)}"`)).toHaveLength(3);
      expect(mail.html).toContain(`>${escapeHtml(link)}</a>`);
      expect(mail.text).toContain(`\n${link}\n`);
      for (const value of strings) expect(mail.html).toContain(escapeHtml(value));
      // The text part has no button to explain and no hidden preview line.
      const { subject: _subject, preview: _preview, ...body } = content;
      for (const value of [...Object.values(body).flat(), texts.greeting('Nina'), texts.footer]) {
        expect(mail.text).toContain(value);
      }
      // Every value the caller passed is in both parts, and none is in the subject.
      for (const value of userValues(data)) {
        expect(mail.html).toContain(escapeHtml(value));
        expect(mail.text).toContain(value);
        expect(mail.subject).not.toContain(value);
      }
      if (locale !== 'en') {
        const english = MAIL_TEXTS.en.templates[template](data as never);
        expect(content.subject).not.toBe(english.subject);
        expect(content.ignore).not.toBe(english.ignore);
        expect(content.action).not.toBe(english.action);
        for (const [index, paragraph] of content.paragraphs.entries()) {
          if (paragraph !== english.paragraphs[index]) continue;
          // Only a line that is nothing but a value may read alike in two languages.
          expect(userValues(data)).toContain(paragraph);
        }
      }
    },
  );

  // A subject is a header: whatever the caller passes, it stays our own fixed words.
  it.each(cases)(
    'keeps the subject of $template ($variant) in $locale free of user data',
    ({ template, data, locale }) => {
      const marked = Object.fromEntries(
        Object.entries(data).map(([key, value]) => [
          key,
          typeof value !== 'string'
            ? value
            : key === 'link'
              ? `${APP_URL}/${locale}/marker-link`
              : `marker-${key}`,
        ]),
      ) as typeof data;
      const mail = renderMail(message(template, locale, marked), { appUrl: APP_URL });
      const plain = renderMail(message(template, locale, data), { appUrl: APP_URL });
      expect(mail.subject).not.toMatch(/marker/);
      expect(mail.subject).toBe(plain.subject);
      for (const value of userValues(marked)) expect(mail.text).toContain(value);
    },
  );

  it('escapes user data in the HTML part', () => {
    const name = '<script>alert("x")</script> & Co';
    const newEmail = '"><img src=x onerror=alert(1)>@example.test';
    const mail = renderMail(message('email_change', 'en', { name, link: LINK, newEmail }), {
      appUrl: APP_URL,
    });
    expect(mail.html).not.toContain('<script');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co,');
    expect(mail.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;@example.test');
    expect(mail.text).toContain(`Hi ${name},`);
    expect(mail.subject).not.toContain('script');
  });

  it('escapes the values of a billing mail in the HTML part', () => {
    const mail = renderMail(
      message('billing_payment_failed', 'fr', {
        ...SAMPLE_DATA.billing_payment_failed,
        planName: 'Plus <b>Pro</b>',
        amount: '9,99 € & "taxes"',
        reason: '<script>alert(1)</script>',
      }),
      { appUrl: APP_URL },
    );
    expect(mail.html).not.toContain('<script');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('formule Plus &lt;b&gt;Pro&lt;/b&gt;');
    expect(mail.html).toContain('9,99 € &amp; &quot;taxes&quot;');
    expect(mail.html).toContain('Motif\u00a0: &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.text).toContain('Motif\u00a0: <script>alert(1)</script>');
  });

  it('escapes a link inside its attribute', () => {
    const link = `${APP_URL}/en/x?a="><b>bold</b>`;
    const mail = renderMail(message('password_set', 'en', { name: 'Nina', link }), {
      appUrl: APP_URL,
    });
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain(
      'href="https://vpn.example.test/en/x?a=&quot;&gt;&lt;b&gt;bold&lt;/b&gt;"',
    );
  });

  it('refuses a link that is not http(s)', () => {
    expect(() =>
      renderMail(message('email_verify', 'en', { name: 'Nina', link: 'javascript:alert(1)' }), {
        appUrl: APP_URL,
      }),
    ).toThrow(/http\(s\)/);
  });

  it('keeps a name on one line, so it cannot forge lines of the text part', () => {
    const mail = renderMail(
      message('password_changed', 'en', { name: 'Nina\n\nReset here:\r\nhttps://evil.example' }),
      { appUrl: APP_URL },
    );
    expect(mail.text).toContain('Hi Nina Reset here: https://evil.example,');
  });

  it.each([
    ['en', 60, 'This link expires in 1 hour'],
    ['en', 90, 'This link expires in 90 minutes'],
    ['es', 120, 'caduca en 2 horas'],
    ['fr', 30, 'expire dans 30 minutes'],
    ['nl', 60, 'verloopt over 1 uur'],
    ['ru', 60, 'Срок действия ссылки — 1 час.'],
    ['ru', 45, 'Срок действия ссылки — 45 минут.'],
  ] as const)('words the reset expiry in %s for %i minutes', (locale, minutes, expected) => {
    const mail = renderMail(
      message('password_reset', locale, { name: 'Nina', link: LINK, expiresInMinutes: minutes }),
      { appUrl: APP_URL },
    );
    expect(mail.text).toContain(expected);
  });

  describe('billing wording that depends on the data', () => {
    const failed = SAMPLE_DATA.billing_payment_failed;
    const canceled = SAMPLE_DATA.billing_canceled;
    const render = <T extends TemplateName>(template: T, locale: Lang, data: TemplateData[T]) =>
      renderMail(message(template, locale, data), { appUrl: APP_URL });

    it.each(LANGS)(
      'says in %s when a failed payment is retried and until when access stays',
      (locale) => {
        const retry = render('billing_payment_failed', locale, failed);
        const last = render('billing_payment_failed', locale, {
          ...failed,
          retryOn: null,
          graceEndsOn: null,
        });
        expect(retry.text).toContain(failed.retryOn);
        expect(retry.text).toContain(failed.graceEndsOn);
        expect(retry.text).toContain(failed.reason);
        expect(last.text).toContain(failed.reason);
        // After the last attempt there is no next try to announce: the mail says it lapsed.
        expect(last.subject).not.toBe(retry.subject);
        const lastContent = MAIL_TEXTS[locale].templates.billing_payment_failed({
          ...failed,
          retryOn: null,
          graceEndsOn: null,
        });
        const retryContent = MAIL_TEXTS[locale].templates.billing_payment_failed(failed);
        expect(lastContent.heading).not.toBe(retryContent.heading);
        expect(lastContent.paragraphs.at(-1)).not.toBe(retryContent.paragraphs.at(-1));
      },
    );

    it.each(LANGS)('tells in %s a canceling at period end from one at once', (locale) => {
      const atEnd = render('billing_canceled', locale, canceled);
      const atOnce = render('billing_canceled', locale, { ...canceled, endsOn: null });
      expect(atEnd.text).toContain(canceled.endsOn);
      expect(atOnce.text).not.toContain(canceled.endsOn);
      const atEndContent = MAIL_TEXTS[locale].templates.billing_canceled(canceled);
      const atOnceContent = MAIL_TEXTS[locale].templates.billing_canceled({
        ...canceled,
        endsOn: null,
      });
      expect(atOnceContent.preview).not.toBe(atEndContent.preview);
      for (const paragraph of atOnceContent.paragraphs) {
        expect(atEndContent.paragraphs).not.toContain(paragraph);
      }
    });

    // Intl ends a Russian date with «г.», the medium style abbreviates months with a full stop.
    const intlCases = LANGS.flatMap((locale) =>
      (['long', 'medium'] as const).map((dateStyle) => ({ locale, dateStyle })),
    );
    it.each(intlCases)(
      'ends a sentence on an Intl $dateStyle date in $locale with one full stop',
      ({ locale, dateStyle }) => {
        const date = new Intl.DateTimeFormat(locale, { dateStyle, timeZone: 'UTC' }).format(
          new Date('2026-03-31T12:00:00Z'),
        );
        const mails = [
          render('billing_receipt', locale, { ...SAMPLE_DATA.billing_receipt, periodEnd: date }),
          render('billing_payment_failed', locale, { ...failed, retryOn: date, graceEndsOn: date }),
          render('billing_payment_failed', locale, { ...failed, retryOn: date, graceEndsOn: null }),
          render('billing_renewal_reminder', locale, {
            ...SAMPLE_DATA.billing_renewal_reminder,
            renewsOn: date,
          }),
          render('billing_canceled', locale, { ...canceled, endsOn: date }),
        ];
        for (const mail of mails) {
          expect(mail.text).toContain(date);
          expect(mail.text).not.toMatch(/\.\.|\.,|\s[.,]/);
        }
      },
    );

    it.each([
      ['en', 'Your Shieldline VPN subscription renews in 3 days'],
      ['es', 'Tu suscripción de Shieldline VPN se renueva en 3 días'],
      ['fr', 'Votre abonnement Shieldline VPN sera renouvelé dans 3 jours'],
      ['nl', 'Je Shieldline VPN-abonnement wordt over 3 dagen verlengd'],
      ['ru', 'Подписка Shieldline VPN продлится через 3 дня'],
    ] as const)('announces the renewal 3 days ahead in %s', (locale, subject) => {
      const mail = render('billing_renewal_reminder', locale, SAMPLE_DATA.billing_renewal_reminder);
      expect(mail.subject).toBe(subject);
    });
  });
});

describe('amounts and dates as Intl writes them', () => {
  it('keep their no-break spaces, so a number never wraps away from its unit', () => {
    const amount = new Intl.NumberFormat('fr', { style: 'currency', currency: 'EUR' }).format(9.99);
    expect(amount).toMatch(/[\u00a0\u202f]/);
    const data = { ...SAMPLE_DATA.billing_receipt, amount };
    const mail = renderMail(message('billing_receipt', 'fr', data), { appUrl: APP_URL });
    expect(mail.text).toContain(amount);
  });
});
