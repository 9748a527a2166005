import { useTranslation } from 'react-i18next';
import type { SiteBody } from '#shared/contracts/site.ts';
import { pluralKey } from '../../i18n/plural.ts';
import { useSite } from '../site-context.ts';
import { longDate } from '../site-format.ts';
import { Breadcrumbs, PageTitle, PostCards, Prose, READING_TIME, Section } from './parts.tsx';

export function BlogPage({ body }: { body: Extract<SiteBody, { kind: 'blog' }> }) {
  const { t } = useTranslation();
  const { lang, path } = useSite();
  const title =
    body.filter.type === 'category'
      ? t('public_site.blog.category', { name: body.filter.name })
      : body.filter.type === 'tag'
        ? t('public_site.blog.tag', { name: body.filter.name })
        : t('public_site.titles.blog');
  const pageHref = (page: number) => (page === 1 ? path : `${path}?page=${page}`);
  return (
    <Section wide>
      <PageTitle
        lead={
          body.description ||
          (body.filter.type === 'all' ? t('public_site.descriptions.blog') : undefined)
        }
      >
        {title}
      </PageTitle>
      {body.categories.length > 0 && (
        <nav aria-label={t('public_site.blog.categories')} className="mb-8">
          <ul className="flex flex-wrap gap-2">
            <li>
              <a
                href={`/${lang}/blog`}
                aria-current={body.filter.type === 'all' ? 'page' : undefined}
                className="inline-block rounded-full border border-slate-300 px-3 py-1 text-sm text-slate-700 hover:bg-slate-100 aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white"
              >
                {t('site.blog')}
              </a>
            </li>
            {body.categories.map((category) => (
              <li key={category.path}>
                <a
                  href={category.path}
                  aria-current={category.path === path ? 'page' : undefined}
                  className="inline-block rounded-full border border-slate-300 px-3 py-1 text-sm text-slate-700 hover:bg-slate-100 aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white"
                >
                  {category.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {body.posts.length === 0 ? (
        <p className="text-slate-600">{t('public_site.blog.empty')}</p>
      ) : (
        <PostCards posts={body.posts} />
      )}
      {body.pages > 1 && (
        <nav
          aria-label={t('public_site.blog.pages')}
          className="mt-10 flex items-center justify-between gap-4 text-sm"
        >
          {body.page > 1 ? (
            <a
              href={pageHref(body.page - 1)}
              rel="prev"
              className="font-medium text-brand-700 hover:underline"
            >
              {t('public_site.blog.previous')}
            </a>
          ) : (
            <span />
          )}
          <span className="text-slate-600">
            {t('public_site.blog.page_of', { page: body.page, pages: body.pages })}
          </span>
          {body.page < body.pages ? (
            <a
              href={pageHref(body.page + 1)}
              rel="next"
              className="font-medium text-brand-700 hover:underline"
            >
              {t('public_site.blog.next')}
            </a>
          ) : (
            <span />
          )}
        </nav>
      )}
      <p className="mt-10 text-sm">
        <a
          href={`/${lang}/blog/rss.xml`}
          className="text-slate-600 hover:text-slate-900 hover:underline"
        >
          {t('public_site.blog.feed')}
        </a>
      </p>
    </Section>
  );
}

export function PostPage({ body }: { body: Extract<SiteBody, { kind: 'post' }> }) {
  const { t } = useTranslation();
  const { lang, fallback_from } = useSite();
  const crumbs = [{ name: t('site.blog'), path: `/${lang}/blog` }];
  if (body.category) crumbs.push(body.category);
  return (
    <Section>
      <Breadcrumbs items={crumbs} current={body.text.title} />
      <article lang={fallback_from ?? undefined}>
        <header className="mb-8">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {body.text.title}
          </h1>
          <p className="mt-4 flex flex-wrap gap-x-2 text-sm text-slate-600">
            {body.author && <span>{t('public_site.blog.by', { name: body.author })}</span>}
            {body.published_at && (
              <span>
                ·{' '}
                <time dateTime={body.published_at}>
                  {t('public_site.blog.published', { date: longDate(body.published_at, lang) })}
                </time>
              </span>
            )}
            <span>
              ·{' '}
              {t(pluralKey(READING_TIME, body.reading_minutes, lang), { n: body.reading_minutes })}
            </span>
          </p>
        </header>
        {body.cover && (
          <img
            src={body.cover.src}
            srcSet={body.cover.srcset}
            sizes="(min-width: 768px) 720px, 100vw"
            alt={body.cover.alt}
            width={body.cover.width}
            height={body.cover.height}
            fetchPriority="high"
            className="mb-8 aspect-[16/9] w-full rounded-2xl object-cover"
          />
        )}
        {body.text.toc.length > 1 && (
          <nav
            aria-labelledby="toc-heading"
            className="mb-8 rounded-2xl border border-slate-200 bg-white p-5"
          >
            <h2 id="toc-heading" className="mb-2 font-semibold text-slate-900">
              {t('public_site.blog.contents')}
            </h2>
            <ol className="flex flex-col gap-1 text-sm">
              {body.text.toc.map((entry) => (
                <li key={entry.id} className={entry.depth === 3 ? 'ml-4' : undefined}>
                  <a href={`#${entry.id}`} className="text-brand-700 hover:underline">
                    {entry.text}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
        )}
        <Prose html={body.text.html} />
        {body.tags.length > 0 && (
          <footer className="mt-10">
            <h2 className="sr-only">{t('public_site.blog.tags')}</h2>
            <ul className="flex flex-wrap gap-2">
              {body.tags.map((tag) => (
                <li key={tag.path}>
                  <a
                    href={tag.path}
                    className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-700 hover:bg-slate-200"
                  >
                    #{tag.name}
                  </a>
                </li>
              ))}
            </ul>
          </footer>
        )}
      </article>
      {body.related.length > 0 && (
        <section className="mt-14" aria-labelledby="related-heading">
          <h2 id="related-heading" className="mb-6 text-2xl font-bold text-slate-900">
            {t('public_site.blog.related')}
          </h2>
          <PostCards posts={body.related} />
        </section>
      )}
    </Section>
  );
}
