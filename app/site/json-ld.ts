import type { TFunction } from 'i18next';
import type {
  Article,
  BlogPosting,
  BreadcrumbList,
  Organization,
  Product,
  WebSite,
  WithContext,
} from 'schema-dts';
import type { SiteBody, SitePage, SitePricing } from '#shared/contracts/site.ts';
import { minorDigits } from '#shared/money.ts';

// Structured data for search engines (schema.org as JSON-LD): who we are on the home page,
// the plans as offers on pricing, what a post or a help article is, with its trail.

/** One schema.org object of a page, typed by schema-dts. */
export type JsonLd =
  | WithContext<Organization>
  | WithContext<WebSite>
  | WithContext<Product>
  | WithContext<BlogPosting>
  | WithContext<Article>
  | WithContext<BreadcrumbList>;
const CONTEXT = 'https://schema.org' as const;

const major = (amount: number, currency: string) => {
  const digits = minorDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
};

function trail(
  origin: string,
  items: { name: string; path: string }[],
): WithContext<BreadcrumbList> {
  return {
    '@context': CONTEXT,
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.name,
      item: origin + item.path,
    })),
  };
}

function offers(
  origin: string,
  url: string,
  name: string,
  pricing: SitePricing,
): WithContext<Product>[] {
  if (pricing.plans.length === 0) return [];
  return [
    {
      '@context': CONTEXT,
      '@type': 'Product',
      name,
      brand: { '@type': 'Brand', name },
      url,
      offers: pricing.plans.map((plan) => ({
        '@type': 'Offer',
        name: plan.name,
        price: major(plan.amount, plan.currency),
        priceCurrency: plan.currency,
        availability: 'https://schema.org/InStock',
        url: `${origin}${pricing.order_path}?plan=${plan.product_id}`,
      })),
    },
  ];
}

function written(
  origin: string,
  page: SitePage,
  body: Extract<SiteBody, { kind: 'post' | 'article' }>,
): WithContext<BlogPosting> | WithContext<Article> {
  const url = origin + page.path;
  return {
    '@context': CONTEXT,
    '@type': body.kind === 'post' ? 'BlogPosting' : 'Article',
    headline: body.text.title,
    description: body.text.summary,
    inLanguage: page.fallback_from ?? page.lang,
    url,
    mainEntityOfPage: url,
    dateModified: body.updated_at,
    publisher: { '@id': `${origin}/#organization` },
    ...(body.kind === 'post'
      ? {
          datePublished: body.published_at ?? body.updated_at,
          author: { '@type': 'Person', name: body.author ?? '' },
          ...(body.cover ? { image: origin + body.cover.src } : {}),
        }
      : {}),
  };
}

/** The JSON-LD objects of a page. */
export function jsonLdOf(page: SitePage, t: TFunction, origin: string): JsonLd[] {
  const { body, lang } = page;
  const name = t('app.name');
  switch (body.kind) {
    case 'home':
      return [
        {
          '@context': CONTEXT,
          '@type': 'Organization',
          '@id': `${origin}/#organization`,
          name,
          url: `${origin}/`,
          logo: `${origin}/favicon.svg`,
        },
        {
          '@context': CONTEXT,
          '@type': 'WebSite',
          '@id': `${origin}/#website`,
          name,
          url: `${origin}/${lang}`,
          inLanguage: lang,
          publisher: { '@id': `${origin}/#organization` },
        },
        ...offers(origin, `${origin}/${lang}`, name, body.pricing),
      ];
    case 'pricing':
      return offers(origin, origin + page.path, name, body.pricing);
    case 'post': {
      const crumbs = [{ name: t('site.blog'), path: `/${lang}/blog` }];
      if (body.category) crumbs.push(body.category);
      crumbs.push({ name: body.text.title, path: page.path });
      return [written(origin, page, body), trail(origin, crumbs)];
    }
    case 'article': {
      const crumbs = body.breadcrumbs.map((crumb) => ({
        name: crumb.name || t('site.help_center'),
        path: crumb.path,
      }));
      crumbs.push({ name: body.text.title, path: page.path });
      return [written(origin, page, body), trail(origin, crumbs)];
    }
    default:
      return [];
  }
}
