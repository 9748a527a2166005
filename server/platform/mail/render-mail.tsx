import type { CSSProperties, ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Lang } from '#shared/locales.ts';
import type { MailContent, MailTexts, TemplateData, TemplateName } from './mail-texts.ts';
import { en } from './texts/en.ts';
import { es } from './texts/es.ts';
import { fr } from './texts/fr.ts';
import { nl } from './texts/nl.ts';
import { ru } from './texts/ru.ts';

export type { TemplateData, TemplateName } from './mail-texts.ts';

/** Every language's wording, for tests and previews; `renderMail` is the way to send. */
export const MAIL_TEXTS: Record<Lang, MailTexts> = { en, es, fr, nl, ru };

/** A message as its sender describes it: the template decides what `data` must hold. */
export type MailMessage = {
  [T in TemplateName]: { template: T; to: string; locale: Lang; data: TemplateData[T] };
}[TemplateName];

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  /** The link the button leads to. */
  link: string;
}

export interface RenderContext {
  /** The public origin, for links the caller does not pass (APP_URL). */
  appUrl: string;
}

type LinkOf = {
  [T in TemplateName]: (data: TemplateData[T], locale: Lang, context: RenderContext) => string;
};

const LINKS: LinkOf = {
  email_verify: (data) => data.link,
  password_reset: (data) => data.link,
  password_set: (data) => data.link,
  email_change: (data) => data.link,
  // §2 /{lang}/password/forgot: the way back in when someone else changed the password.
  password_changed: (_data, locale, { appUrl }) => `${appUrl}/${locale}/password/forgot`,
  billing_receipt: (data) => data.link,
  billing_payment_failed: (data) => data.link,
  billing_renewal_reminder: (data) => data.link,
  billing_canceled: (data) => data.link,
  billing_refunded: (data) => data.link,
  family_invite: (data) => data.link,
  data_export_ready: (data) => data.link,
};

export const TEMPLATE_NAMES = Object.keys(LINKS) as TemplateName[];

/** Subject, HTML and plain text of one message in the recipient's language. */
export function renderMail(message: MailMessage, context: RenderContext): RenderedMail {
  return renderTemplate(message.template, message.locale, message.data, context);
}

function renderTemplate<T extends TemplateName>(
  template: T,
  locale: Lang,
  data: TemplateData[T],
  context: RenderContext,
): RenderedMail {
  const texts = MAIL_TEXTS[locale];
  const values = singleLine(data);
  const parts: Parts = {
    texts,
    locale,
    name: values.name,
    content: texts.templates[template](values),
    link: webLink(LINKS[template](data, locale, context)),
  };
  return {
    subject: parts.content.subject,
    html: `<!DOCTYPE html>${renderToStaticMarkup(<MailDocument {...parts} />)}`,
    text: renderText(parts),
    link: parts.link,
  };
}

// A line break in a name could forge lines of the plain-text part ("Go to: evil.example").
function singleLine<D extends object>(data: D): D {
  return Object.fromEntries(
    Object.entries(data).map(([key, value]) => [
      key,
      // Line breaks and runs of blanks go; the no-break spaces Intl puts in amounts and
      // dates ("9,99 €") stay, so a number never wraps away from its unit.
      typeof value === 'string' ? value.replace(/[^\S\u00a0\u202f]+/g, ' ').trim() : value,
    ]),
  ) as D;
}

// Links are built by our services; refusing anything but http(s) keeps a bug from mailing a
// `javascript:` or `data:` link under our name.
function webLink(link: string): string {
  const { protocol } = new URL(link);
  if (protocol !== 'https:' && protocol !== 'http:') {
    throw new Error(`a mail link must be http(s), got ${protocol}`);
  }
  return link;
}

interface Parts {
  texts: MailTexts;
  locale: Lang;
  name: string;
  content: MailContent;
  link: string;
}

function renderText({ texts, content, link, name }: Parts): string {
  return [
    'Shieldline VPN',
    content.heading,
    texts.greeting(name),
    ...content.paragraphs,
    `${content.action}\n${link}`,
    content.note,
    content.ignore,
    texts.signature,
    `-- \n${texts.footer}`,
  ]
    .filter((block): block is string => Boolean(block))
    .join('\n\n')
    .concat('\n');
}

// Mail apps ignore style sheets and half of CSS, so the layout is tables with inline styles;
// colours keep at least 4.5:1 contrast (WCAG AA) on their backgrounds.
const FONT = 'Arial, Helvetica, sans-serif';
export const COLOR = {
  text: '#1f2937',
  muted: '#4b5563',
  brand: '#2449c4',
  link: '#1d3a9c',
  page: '#f3f4f6',
  card: '#ffffff',
};
const PARAGRAPH: CSSProperties = {
  margin: '0 0 16px',
  fontSize: 16,
  lineHeight: '24px',
  color: COLOR.text,
};
const SMALL: CSSProperties = { ...PARAGRAPH, fontSize: 14, lineHeight: '20px', color: COLOR.muted };
export const STYLE = {
  body: { margin: 0, padding: 0, backgroundColor: COLOR.page, fontFamily: FONT },
  preview: { display: 'none', maxHeight: 0, overflow: 'hidden' },
  page: { backgroundColor: COLOR.page },
  pageCell: { padding: '24px 12px' },
  card: { maxWidth: 560, backgroundColor: COLOR.card, borderRadius: 8 },
  cardCell: { padding: '32px 28px', fontFamily: FONT, textAlign: 'left' },
  brand: { ...PARAGRAPH, fontSize: 18, fontWeight: 'bold', color: COLOR.brand },
  heading: { margin: '0 0 20px', fontSize: 24, lineHeight: '32px', color: COLOR.text },
  paragraph: PARAGRAPH,
  small: SMALL,
  rawLink: { color: COLOR.link, wordBreak: 'break-all' },
  signature: { ...PARAGRAPH, margin: '24px 0 0' },
  footer: { ...SMALL, margin: '16px 0 0', fontSize: 12, textAlign: 'center' },
} satisfies Record<string, CSSProperties>;

function MailDocument(parts: Parts) {
  return (
    <html lang={parts.locale} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{parts.content.subject}</title>
      </head>
      <body style={STYLE.body}>
        <div style={STYLE.preview}>{parts.content.preview}</div>
        <LayoutTable width="100%" style={STYLE.page}>
          <td align="center" style={STYLE.pageCell}>
            <LayoutTable width="100%" style={STYLE.card}>
              <td style={STYLE.cardCell}>
                <MailBody {...parts} />
              </td>
            </LayoutTable>
            <p style={STYLE.footer}>{parts.texts.footer}</p>
          </td>
        </LayoutTable>
      </body>
    </html>
  );
}

function MailBody({ texts, name, content, link }: Parts) {
  return (
    <>
      <p style={STYLE.brand}>Shieldline VPN</p>
      <h1 style={STYLE.heading}>{content.heading}</h1>
      <p style={STYLE.paragraph}>{texts.greeting(name)}</p>
      {content.paragraphs.map((paragraph) => (
        <p key={paragraph} style={STYLE.paragraph}>
          {paragraph}
        </p>
      ))}
      <ActionButton link={link} label={content.action} />
      <p style={STYLE.small}>
        {texts.linkHint}
        <br />
        <a href={link} style={STYLE.rawLink}>
          {link}
        </a>
      </p>
      {content.note ? <p style={STYLE.small}>{content.note}</p> : null}
      <p style={STYLE.small}>{content.ignore}</p>
      <p style={STYLE.signature}>{texts.signature}</p>
    </>
  );
}

/** A one-cell table: the only layout every mail app (Outlook included) draws alike. */
export function LayoutTable({
  width,
  style,
  children,
}: {
  width?: string;
  style: CSSProperties;
  children: ReactNode;
}) {
  return (
    <table role="presentation" width={width} cellPadding={0} cellSpacing={0} style={style}>
      <tbody>
        <tr>{children}</tr>
      </tbody>
    </table>
  );
}

// A link styled inside a coloured cell: the "bulletproof button" that Outlook also draws.
export function ActionButton({ link, label }: { link: string; label: string }) {
  return (
    <LayoutTable style={{ margin: '8px 0 24px' }}>
      <td style={{ borderRadius: 6, backgroundColor: COLOR.brand }}>
        <a href={link} style={BUTTON}>
          {label}
        </a>
      </td>
    </LayoutTable>
  );
}

const BUTTON: CSSProperties = {
  display: 'inline-block',
  padding: '12px 24px',
  fontFamily: FONT,
  fontSize: 16,
  fontWeight: 'bold',
  color: '#ffffff',
  textDecoration: 'none',
  borderRadius: 6,
};
