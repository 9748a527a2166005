import { useTranslation } from 'react-i18next';
import type { SiteBody } from '#shared/contracts/site.ts';
import { useSite } from '../site-context.ts';
import { FaqList, PageTitle, Prose, Section, TextBlock } from './parts.tsx';
import { PlanCards } from './plan-cards.tsx';

export function PricingPage({ body }: { body: Extract<SiteBody, { kind: 'pricing' }> }) {
  const { fallback_from } = useSite();
  return (
    <Section wide>
      <div lang={fallback_from ?? undefined}>
        <PageTitle lead={body.text.summary}>{body.text.title}</PageTitle>
      </div>
      <PlanCards pricing={body.pricing} />
      <div className="below-fold mt-12 max-w-3xl" lang={fallback_from ?? undefined}>
        <Prose html={body.text.html} />
      </div>
      {body.faq && (
        <div className="max-w-3xl">
          <FaqList faq={body.faq} />
        </div>
      )}
    </Section>
  );
}

/** §"servers": every country and city with how many servers are online now. */
export function ServersPage({ body }: { body: Extract<SiteBody, { kind: 'servers' }> }) {
  const { t } = useTranslation();
  const { fallback_from } = useSite();
  const { fleet } = body;
  return (
    <Section wide>
      <div lang={fallback_from ?? undefined}>
        <PageTitle lead={body.text.summary}>{body.text.title}</PageTitle>
      </div>
      <p className="mb-6 font-medium text-slate-800" data-testid="fleet-summary">
        {t('public_site.servers.summary', {
          online: fleet.online,
          servers: fleet.servers,
          countries: fleet.countries.length,
        })}
      </p>
      {fleet.countries.length === 0 ? (
        <p className="text-slate-600">{t('public_site.servers.empty')}</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="fleet-countries">
          {fleet.countries.map((country) => (
            <li key={country.code} className="rounded-2xl border border-slate-200 bg-white p-5">
              <h2 className="flex items-baseline justify-between gap-2 font-semibold text-slate-900">
                <span>{country.name}</span>
                <span className="text-sm font-normal text-slate-600">
                  {t('public_site.servers.online', {
                    online: country.online,
                    servers: country.servers,
                  })}
                </span>
              </h2>
              <ul className="mt-3 flex flex-col gap-1 text-sm text-slate-700">
                {country.cities.map((city) => (
                  <li key={city.name} className="flex justify-between gap-2">
                    <span>{city.name}</span>
                    <span className="tabular-nums text-slate-600">
                      {t('public_site.servers.online', {
                        online: city.online,
                        servers: city.servers,
                      })}
                    </span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <div className="below-fold mt-12 max-w-3xl" lang={fallback_from ?? undefined}>
        <Prose html={body.text.html} />
      </div>
    </Section>
  );
}

export function DownloadPage({ body }: { body: Extract<SiteBody, { kind: 'download' }> }) {
  const { t } = useTranslation();
  const { lang } = useSite();
  return (
    <Section>
      <aside className="mb-8 rounded-2xl border border-brand-200 bg-brand-50 p-5">
        <h2 className="font-semibold text-slate-900">{t('public_site.download.devices')}</h2>
        <p className="mt-1 text-sm text-slate-700">{t('public_site.download.devices_text')}</p>
        <a
          href={`/${lang}/download`}
          className="mt-3 inline-block font-medium text-brand-700 hover:underline"
        >
          {t('public_site.download.devices_link')}
        </a>
      </aside>
      <TextBlock text={body.text} />
    </Section>
  );
}

export function TextPage({ body }: { body: Extract<SiteBody, { kind: 'page' }> }) {
  return (
    <Section>
      <TextBlock text={body.text} />
    </Section>
  );
}

export function FaqPage({ body }: { body: Extract<SiteBody, { kind: 'faq' }> }) {
  const { fallback_from } = useSite();
  return (
    <Section>
      <div lang={fallback_from ?? undefined}>
        <PageTitle>{body.faq.title}</PageTitle>
        <div className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
          {body.faq.questions.map((entry) => (
            <section key={entry.question} className="px-5 py-5">
              <h2 className="font-semibold text-slate-900">{entry.question}</h2>
              <div className="mt-2">
                <Prose html={entry.html} />
              </div>
            </section>
          ))}
        </div>
      </div>
    </Section>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  const { lang, links } = useSite();
  return (
    <Section testId="page-not-found">
      <PageTitle lead={t('public_site.not_found.text')}>
        {t('public_site.not_found.title')}
      </PageTitle>
      <ul className="flex flex-wrap gap-4">
        <li>
          <a href={`/${lang}`} className="font-medium text-brand-700 hover:underline">
            {t('public_site.not_found.home')}
          </a>
        </li>
        <li>
          <a href={links.help_center} className="font-medium text-brand-700 hover:underline">
            {t('public_site.not_found.help')}
          </a>
        </li>
      </ul>
    </Section>
  );
}
