import { describe, expect, it } from 'vitest';
import { LANGS } from '#shared/locales.ts';
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
};

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
  const cases = LANGS.flatMap((locale) => TEMPLATE_NAMES.map((template) => ({ template, locale })));

  it('knows all five templates', () => {
    expect([...TEMPLATE_NAMES].sort()).toEqual(
      ['email_change', 'email_verify', 'password_changed', 'password_reset', 'password_set'].sort(),
    );
  });

  it.each(cases)('renders $template in $locale with every text present', ({ template, locale }) => {
    const data = SAMPLE_DATA[template];
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
    if (locale !== 'en') {
      const english = MAIL_TEXTS.en.templates[template](data as never);
      expect(content.subject).not.toBe(english.subject);
      expect(content.ignore).not.toBe(english.ignore);
      expect(content.action).not.toBe(english.action);
    }
  });

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
});
