import { useTranslation } from 'react-i18next';
import type { SiteBody } from '#shared/contracts/site.ts';
import { Island } from '../island.tsx';
import { useSite } from '../site-context.ts';
import { longDate } from '../site-format.ts';
import { ArticleLinks, Breadcrumbs, FaqList, PageTitle, Prose, Section } from './parts.tsx';

export function HelpPage({ body }: { body: Extract<SiteBody, { kind: 'help' }> }) {
  const { t } = useTranslation();
  const { lang } = useSite();
  return (
    <Section wide>
      <PageTitle lead={t('public_site.help.lead')}>{t('public_site.titles.help_center')}</PageTitle>
      <Island name="help-search" props={{ lang }} />
      {body.categories.length === 0 ? (
        <p className="text-slate-600">{t('public_site.help.empty')}</p>
      ) : (
        <ul className="grid gap-6 md:grid-cols-2" data-testid="help-categories">
          {body.categories.map((category) => (
            <li key={category.path} className="rounded-2xl border border-slate-200 bg-white p-6">
              <h2 className="text-xl font-semibold text-slate-900">
                <a href={category.path} className="hover:underline">
                  {category.name}
                </a>
              </h2>
              {category.description && (
                <p className="mt-1 text-sm text-slate-600">{category.description}</p>
              )}
              {category.articles.length > 0 && (
                <div className="mt-4">
                  <ArticleLinks articles={category.articles} />
                </div>
              )}
              {category.children.map((child) => (
                <div key={child.path} className="mt-4">
                  <h3 className="mb-2 font-medium text-slate-800">
                    <a href={child.path} className="hover:underline">
                      {child.name}
                    </a>
                  </h3>
                  <ArticleLinks articles={child.articles.slice(0, 5)} />
                </div>
              ))}
            </li>
          ))}
        </ul>
      )}
      {body.faq && (
        <div className="max-w-3xl">
          <FaqList faq={body.faq} />
        </div>
      )}
    </Section>
  );
}

export function HelpCategoryPage({ body }: { body: Extract<SiteBody, { kind: 'help_category' }> }) {
  const { t } = useTranslation();
  const { category } = body;
  return (
    <Section>
      <Breadcrumbs items={body.breadcrumbs} current={category.name} />
      <PageTitle lead={category.description || undefined}>{category.name}</PageTitle>
      {category.articles.length === 0 && category.children.length === 0 && (
        <p className="text-slate-600">{t('public_site.help.empty')}</p>
      )}
      {category.articles.length > 0 && <ArticleLinks articles={category.articles} />}
      {category.children.map((child) => (
        <section key={child.path} className="mt-8">
          <h2 className="mb-3 text-xl font-semibold text-slate-900">
            <a href={child.path} className="hover:underline">
              {child.name}
            </a>
          </h2>
          <ArticleLinks articles={child.articles} />
        </section>
      ))}
    </Section>
  );
}

export function ArticlePage({ body }: { body: Extract<SiteBody, { kind: 'article' }> }) {
  const { t } = useTranslation();
  const { lang, fallback_from } = useSite();
  return (
    <Section>
      <Breadcrumbs items={body.breadcrumbs} current={body.text.title} />
      <article lang={fallback_from ?? undefined}>
        <PageTitle>{body.text.title}</PageTitle>
        <Prose html={body.text.html} />
      </article>
      <p className="mt-8 text-sm text-slate-600">
        <time dateTime={body.updated_at}>
          {t('public_site.help.updated', { date: longDate(body.updated_at, lang) })}
        </time>
      </p>
      <Island name="was-this-helpful" props={{ translationId: body.translation_id }} />
      {body.related.length > 0 && (
        <section className="mt-12" aria-labelledby="related-heading">
          <h2 id="related-heading" className="mb-4 text-xl font-semibold text-slate-900">
            {t('public_site.help.related')}
          </h2>
          <ArticleLinks articles={body.related} />
        </section>
      )}
    </Section>
  );
}
