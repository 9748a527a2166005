import { renderToStaticMarkup } from 'react-dom/server';
import type { Lang } from '#shared/locales.ts';
import { MarkdownBody, markdownText, parseMarkdown } from './mail-markdown.tsx';
import type { RenderedMail } from './render-mail.tsx';
import { ActionButton, COLOR, LayoutTable, MAIL_TEXTS, STYLE } from './render-mail.tsx';

// A message staff send to a notification list (server/modules/notifications). Unlike the
// product's own mails, its subject and body are staff's words: the subject is kept to one
// line, the Markdown body is rendered by mail-markdown.tsx (no raw HTML). Every one carries
// the RFC 8058 one-click unsubscribe headers and a visible unsubscribe link.

export interface ListMailMessage {
  to: string;
  locale: Lang;
  /** The recipient's name, for the greeting. */
  name: string;
  listName: string;
  subject: string;
  /** Markdown. */
  body: string;
  /** Absolute: the one-click POST target of `List-Unsubscribe`. */
  oneClickUrl: string;
  /** Absolute: the page the visible link opens (a button there unsubscribes). */
  unsubscribePageUrl: string;
  /** Absolute: the recipient's notification settings. */
  settingsUrl: string;
  /** `List-Id` (RFC 2919): the list's own stable identifier. */
  listId: string;
}

interface ListMailTexts {
  why(listName: string): string;
  manage: string;
  unsubscribe: string;
}

const TEXTS: Record<Lang, ListMailTexts> = {
  en: {
    why: (list) => `You're receiving this e-mail because you subscribed to “${list}”.`,
    manage: 'Manage e-mail settings',
    unsubscribe: 'Unsubscribe from this list',
  },
  es: {
    why: (list) => `Recibes este correo porque te suscribiste a «${list}».`,
    manage: 'Gestionar ajustes de correo',
    unsubscribe: 'Darse de baja de esta lista',
  },
  fr: {
    why: (list) => `Vous recevez cet e-mail parce que vous êtes abonné(e) à « ${list} ».`,
    manage: 'Gérer les préférences e-mail',
    unsubscribe: 'Se désabonner de cette liste',
  },
  nl: {
    why: (list) => `Je ontvangt deze e-mail omdat je je hebt aangemeld voor ‘${list}’.`,
    manage: 'E-mailinstellingen beheren',
    unsubscribe: 'Afmelden voor deze lijst',
  },
  ru: {
    why: (list) => `Вы получили это письмо, потому что подписались на рассылку «${list}».`,
    manage: 'Настройки рассылок',
    unsubscribe: 'Отписаться от этой рассылки',
  },
};

export const LIST_MAIL_TEXTS = TEXTS;

const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

const MARKDOWN_STYLES = {
  paragraph: STYLE.paragraph,
  heading: { ...STYLE.heading, margin: '8px 0 12px' },
  link: STYLE.rawLink,
  code: { fontFamily: 'Menlo, Consolas, monospace', fontSize: 14, backgroundColor: COLOR.page },
};

/** Subject, HTML and text of a list message, and the headers that make it a list mail. */
export function renderListMail(message: ListMailMessage): RenderedMail & {
  headers: Record<string, string>;
} {
  const texts = MAIL_TEXTS[message.locale];
  const own = TEXTS[message.locale];
  const subject = oneLine(message.subject);
  const listName = oneLine(message.listName);
  const name = oneLine(message.name);
  const blocks = parseMarkdown(message.body);
  const html = renderToStaticMarkup(
    <html lang={message.locale} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{subject}</title>
      </head>
      <body style={STYLE.body}>
        <LayoutTable width="100%" style={STYLE.page}>
          <td align="center" style={STYLE.pageCell}>
            <LayoutTable width="100%" style={STYLE.card}>
              <td style={STYLE.cardCell}>
                <p style={STYLE.brand}>Shieldline VPN</p>
                <h1 style={STYLE.heading}>{subject}</h1>
                <p style={STYLE.paragraph}>{texts.greeting(name)}</p>
                <MarkdownBody blocks={blocks} styles={MARKDOWN_STYLES} />
                <p style={STYLE.signature}>{texts.signature}</p>
                <ActionButton link={message.settingsUrl} label={own.manage} />
                <p style={STYLE.small}>
                  {own.why(listName)}
                  <br />
                  <a href={message.unsubscribePageUrl} style={STYLE.rawLink}>
                    {own.unsubscribe}
                  </a>
                </p>
              </td>
            </LayoutTable>
            <p style={STYLE.footer}>{texts.footer}</p>
          </td>
        </LayoutTable>
      </body>
    </html>,
  );
  const text = [
    'Shieldline VPN',
    subject,
    texts.greeting(name),
    markdownText(blocks),
    texts.signature,
    `${own.manage}\n${message.settingsUrl}`,
    `${own.why(listName)}\n${own.unsubscribe}: ${message.unsubscribePageUrl}`,
    `-- \n${texts.footer}`,
  ]
    .join('\n\n')
    .concat('\n');
  return {
    subject,
    html: `<!DOCTYPE html>${html}`,
    text,
    link: message.unsubscribePageUrl,
    headers: {
      // RFC 8058: mail apps offer "Unsubscribe" and POST `List-Unsubscribe=One-Click` here.
      'List-Unsubscribe': `<${message.oneClickUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'List-Id': `${listName.replace(/[<>"]/g, '')} <${message.listId}>`,
    },
  };
}
