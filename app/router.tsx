import { createBrowserRouter, redirect } from 'react-router';
import type { AppConfig } from '#shared/contracts/app-config.ts';
import { isLang } from '#shared/locales.ts';
import { HomePage } from './features/home/home-page.tsx';
import { PublicLayout } from './features/home/public-layout.tsx';
import { NotFoundPage } from './features/not-found/not-found-page.tsx';

export function createRouter(config: AppConfig) {
  const supported = (lang: string | undefined) =>
    isLang(lang) && config.locales.includes(lang) ? lang : undefined;

  return createBrowserRouter([
    { path: '/', loader: () => redirect(`/${config.defaultLocale}`) },
    {
      path: '/:lang',
      Component: PublicLayout,
      // A path without a supported language gets the default one in front (§2 guard 1).
      loader: ({ params, request }) => {
        if (supported(params.lang)) return null;
        const url = new URL(request.url);
        return redirect(`/${config.defaultLocale}${url.pathname}${url.search}`);
      },
      children: [
        { index: true, Component: HomePage },
        { path: 'page-not-found', Component: NotFoundPage },
        { path: '*', Component: NotFoundPage },
      ],
    },
  ]);
}
