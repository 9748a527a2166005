import { useTranslation } from 'react-i18next';
import type { ArticleCard, PostCard, SiteFaq, SiteText } from '#shared/contracts/site.ts';
import { type PluralForms, pluralKey } from '../../i18n/plural.ts';
import { useSite } from '../site-context.ts';
import { longDate } from '../site-format.ts';

export const READING_TIME: PluralForms = {
  one: 'public_site.blog.reading_time.one',
  few: 'public_site.blog.reading_time.few',
  many: 'public_site.blog.reading_time.many',
  other: 'public_site.blog.reading_time.other',
};

/** A text's body: HTML the server sanitized when it was saved (shared/content/markdown.ts). */
export function Prose({ html, lang }: { html: string; lang?: string }) {
  return (
    <div
      className="content-prose text-slate-700"
      lang={lang}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by rehype-sanitize on save
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

export function PageTitle({ children, lead }: { children: string; lead?: string }) {
  return (
    <header className="mb-8">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{children}</h1>
      {lead && <p className="mt-3 max-w-2xl text-lg text-slate-600">{lead}</p>}
    </header>
  );
}

/** The text of a page: its title, and its body in the language it is written in. */
export function TextBlock({ text }: { text: SiteText }) {
  const { fallback_from } = useSite();
  return (
    <div lang={fallback_from ?? undefined}>
      <PageTitle>{text.title}</PageTitle>
      <Prose html={text.html} />
    </div>
  );
}

export function Breadcrumbs({
  items,
  current,
}: {
  items: { name: string; path: string }[];
  current: string;
}) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('public_site.breadcrumbs')} className="mb-6 text-sm text-slate-600">
      <ol className="flex flex-wrap items-center gap-1">
        {items.map((item) => (
          <li key={item.path} className="flex items-center gap-1">
            <a href={item.path} className="hover:text-slate-900 hover:underline">
              {item.name || t('site.help_center')}
            </a>
            <span aria-hidden="true">/</span>
          </li>
        ))}
        <li aria-current="page" className="text-slate-900">
          {current}
        </li>
      </ol>
    </nav>
  );
}

export function PostCards({ posts }: { posts: PostCard[] }) {
  const { t } = useTranslation();
  const { lang } = useSite();
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {posts.map((post) => (
        <li
          key={post.path}
          className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white"
        >
          {post.cover && (
            <img
              src={post.cover.src}
              srcSet={post.cover.srcset}
              sizes="(min-width: 1024px) 352px, (min-width: 640px) 50vw, 100vw"
              alt=""
              width={post.cover.width}
              height={post.cover.height}
              loading="lazy"
              decoding="async"
              className="aspect-[16/9] w-full object-cover"
            />
          )}
          <div className="flex flex-1 flex-col gap-2 p-5">
            {post.category && (
              <a
                href={post.category.path}
                className="text-xs font-semibold uppercase tracking-wide text-brand-700"
              >
                {post.category.name}
              </a>
            )}
            <h3 className="text-lg font-semibold text-slate-900">
              <a href={post.path} className="hover:underline">
                {post.title}
              </a>
            </h3>
            <p className="flex-1 text-sm text-slate-600">{post.summary}</p>
            <p className="text-xs text-slate-600">
              {post.published_at && (
                <time dateTime={post.published_at}>{longDate(post.published_at, lang)}</time>
              )}
              {post.published_at && ' · '}
              {t(pluralKey(READING_TIME, post.reading_minutes, lang), { n: post.reading_minutes })}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function ArticleLinks({ articles }: { articles: ArticleCard[] }) {
  return (
    <ul className="flex flex-col gap-2">
      {articles.map((article) => (
        <li key={article.path}>
          <a href={article.path} className="text-brand-700 hover:text-brand-800 hover:underline">
            {article.title}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Questions and answers, each opening in place (no script needed). */
export function FaqList({ faq, heading }: { faq: SiteFaq; heading?: string }) {
  return (
    <section className="below-fold mt-12" aria-labelledby="faq-heading">
      <h2 id="faq-heading" className="mb-4 text-2xl font-bold text-slate-900">
        {heading ?? faq.title}
      </h2>
      <div className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
        {faq.questions.map((entry) => (
          <details key={entry.question} className="group px-5 py-4">
            <summary className="cursor-pointer font-medium text-slate-900">
              {entry.question}
            </summary>
            <div className="mt-3">
              <Prose html={entry.html} />
            </div>
          </details>
        ))}
      </div>
    </section>
  );
}

export function Section({
  children,
  wide = false,
  testId,
}: {
  children: React.ReactNode;
  wide?: boolean;
  testId?: string;
}) {
  return (
    <div
      className={`mx-auto px-4 py-10 sm:px-6 ${wide ? 'max-w-6xl' : 'max-w-3xl'}`}
      data-testid={testId}
    >
      {children}
    </div>
  );
}
