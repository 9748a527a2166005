import type { KoaContextWithOIDC } from 'oidc-provider';
import { type Lang, pickLang } from '#shared/locales.ts';

// The few pages the provider itself shows (the sign-out question, its success, a protocol
// error a browser lands on), in the person's language and the product's look. Everything
// else a person sees on the way is one of our screens.

const TEXTS: Record<
  Lang,
  Record<'logout' | 'yes' | 'no' | 'done' | 'doneText' | 'error', string>
> = {
  en: {
    logout: 'Sign out of Shieldline?',
    yes: 'Yes, sign me out',
    no: 'No, stay signed in',
    done: 'You are signed out',
    doneText: 'You can close this page.',
    error: 'This sign-in cannot go on',
  },
  es: {
    logout: '¿Cerrar sesión en Shieldline?',
    yes: 'Sí, cerrar sesión',
    no: 'No, seguir conectado',
    done: 'Has cerrado sesión',
    doneText: 'Puedes cerrar esta página.',
    error: 'Este inicio de sesión no puede continuar',
  },
  fr: {
    logout: 'Se déconnecter de Shieldline ?',
    yes: 'Oui, me déconnecter',
    no: 'Non, rester connecté',
    done: 'Vous êtes déconnecté',
    doneText: 'Vous pouvez fermer cette page.',
    error: 'Cette connexion ne peut pas continuer',
  },
  nl: {
    logout: 'Afmelden bij Shieldline?',
    yes: 'Ja, meld me af',
    no: 'Nee, aangemeld blijven',
    done: 'Je bent afgemeld',
    doneText: 'Je kunt deze pagina sluiten.',
    error: 'Deze aanmelding kan niet verder',
  },
  ru: {
    logout: 'Выйти из Shieldline?',
    yes: 'Да, выйти',
    no: 'Нет, остаться',
    done: 'Вы вышли',
    doneText: 'Эту страницу можно закрыть.',
    error: 'Этот вход не может быть продолжен',
  },
};

const htmlText = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface PageLanguages {
  locales: readonly Lang[];
  defaultLocale: Lang;
}

function langOf(ctx: KoaContextWithOIDC, languages: PageLanguages): Lang {
  const asked = ctx.oidc?.params?.ui_locales;
  const header = [typeof asked === 'string' ? asked : '', ctx.get('accept-language')]
    .filter(Boolean)
    .join(',');
  return pickLang(header, languages.locales, languages.defaultLocale);
}

function page(lang: Lang, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${htmlText(title)}</title><style>body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;display:flex;justify-content:center;padding:4rem 1rem;margin:0}main{background:#fff;border:1px solid #e2e8f0;border-radius:1rem;padding:2rem;max-width:24rem;width:100%}h1{font-size:1.25rem;margin:0 0 1rem}p{color:#475569}button{display:block;width:100%;min-height:2.5rem;margin-top:.75rem;border-radius:.5rem;font:inherit;font-weight:600;cursor:pointer}.yes{background:#2563eb;color:#fff;border:0}.no{background:#fff;border:1px solid #cbd5e1;color:#1e293b}button:focus-visible{outline:2px solid #2563eb;outline-offset:2px}</style></head><body><main>${body}</main></body></html>`;
}

export function providerPages(languages: PageLanguages) {
  return {
    logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
      const lang = langOf(ctx, languages);
      const t = TEXTS[lang];
      ctx.type = 'html';
      ctx.body = page(
        lang,
        t.logout,
        `<h1>${htmlText(t.logout)}</h1>${form}<button class="yes" autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${htmlText(t.yes)}</button><button class="no" type="submit" form="op.logoutForm">${htmlText(t.no)}</button>`,
      );
    },
    postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
      const lang = langOf(ctx, languages);
      const t = TEXTS[lang];
      ctx.type = 'html';
      ctx.body = page(lang, t.done, `<h1>${htmlText(t.done)}</h1><p>${htmlText(t.doneText)}</p>`);
    },
    renderError: async (
      ctx: KoaContextWithOIDC,
      out: { error: string; error_description?: string },
    ) => {
      const lang = langOf(ctx, languages);
      const t = TEXTS[lang];
      ctx.type = 'html';
      ctx.body = page(
        lang,
        t.error,
        `<h1>${htmlText(t.error)}</h1><p><code>${htmlText(out.error)}</code>${out.error_description ? `: ${htmlText(out.error_description)}` : ''}</p>`,
      );
    },
  };
}
