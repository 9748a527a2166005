import { useTranslation } from 'react-i18next';
import type { SiteBody } from '#shared/contracts/site.ts';
import { type PluralForms, pluralKey } from '../../i18n/plural.ts';
import { useSite } from '../site-context.ts';
import { ArticleLinks, FaqList, PostCards, Section } from './parts.tsx';
import { PlanCards } from './plan-cards.tsx';

const COUNTRIES: PluralForms = {
  one: 'public_site.home.servers_title.one',
  few: 'public_site.home.servers_title.few',
  many: 'public_site.home.servers_title.many',
  other: 'public_site.home.servers_title.other',
};

export function HomePage({ body }: { body: Extract<SiteBody, { kind: 'home' }> }) {
  const { t } = useTranslation();
  const { lang, links } = useSite();
  const { fleet } = body;
  return (
    <>
      <section className="bg-white">
        <div className="mx-auto max-w-4xl px-6 py-16 text-center sm:py-20">
          <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
            {t('public_site.home.title')}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">
            {t('public_site.home.lead')}
          </p>
          <div className="mt-10 flex flex-wrap justify-center gap-3">
            <a
              href={links.pricing}
              className="rounded-lg bg-brand-600 px-6 py-3 font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
            >
              {t('public_site.get')}
            </a>
            <a
              href={links.servers}
              className="rounded-lg border border-slate-300 bg-white px-6 py-3 font-semibold text-slate-800 hover:bg-slate-50"
            >
              {t('public_site.home.all_servers')}
            </a>
          </div>
        </div>
      </section>
      <Section wide>
        <h2 className="mb-6 text-2xl font-bold text-slate-900">
          {t('public_site.home.plans_title')}
        </h2>
        <PlanCards pricing={body.pricing} />
        <p className="mt-4">
          <a href={links.pricing} className="font-medium text-brand-700 hover:underline">
            {t('public_site.home.all_plans')}
          </a>
        </p>
      </Section>
      <Section wide>
        <div className="grid gap-8 lg:grid-cols-2">
          <div className="rounded-2xl border border-slate-200 bg-white p-6">
            <h2 className="text-2xl font-bold text-slate-900">
              {t(pluralKey(COUNTRIES, fleet.countries.length, lang), { n: fleet.countries.length })}
            </h2>
            <p className="mt-2 text-slate-600">
              {t('public_site.home.servers_lead', { online: fleet.online, servers: fleet.servers })}
            </p>
            <ul className="mt-4 flex flex-wrap gap-2">
              {fleet.countries.map((country) => (
                <li
                  key={country.code}
                  className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-700"
                >
                  {country.name}
                </li>
              ))}
            </ul>
            <a
              href={links.servers}
              className="mt-4 inline-block font-medium text-brand-700 hover:underline"
            >
              {t('public_site.home.all_servers')}
            </a>
          </div>
          <div className="rounded-2xl border border-slate-200 bg-white p-6">
            <h2 className="text-2xl font-bold text-slate-900">
              {t('public_site.home.apps_title')}
            </h2>
            <p className="mt-2 text-slate-600">{t('public_site.home.apps_lead')}</p>
            <a
              href={links.download}
              className="mt-4 inline-block font-medium text-brand-700 hover:underline"
            >
              {t('public_site.home.apps_link')}
            </a>
          </div>
        </div>
      </Section>
      {body.posts.length > 0 && (
        <Section wide>
          <h2 className="mb-6 text-2xl font-bold text-slate-900">
            {t('public_site.home.blog_title')}
          </h2>
          <PostCards posts={body.posts} />
        </Section>
      )}
      {body.articles.length > 0 && (
        <Section wide>
          <h2 className="mb-4 text-2xl font-bold text-slate-900">
            {t('public_site.home.help_title')}
          </h2>
          <ArticleLinks articles={body.articles} />
        </Section>
      )}
      {body.faq && (
        <Section>
          <FaqList faq={body.faq} heading={t('public_site.home.faq_title')} />
        </Section>
      )}
    </>
  );
}
