import i18next from 'i18next';
import {
  createBrowserRouter,
  type LoaderFunctionArgs,
  type RouteObject,
  redirect,
} from 'react-router';
import type { AppConfig } from '#shared/contracts/app-config.ts';
import { HomePage } from './features/home/home-page.tsx';
import { NotFoundPage } from './features/not-found/not-found-page.tsx';
import { UnavailableScreen } from './features/unavailable/unavailable-screen.tsx';
import { decide } from './guards/decide.ts';
import type { Decision, Effect, GuardState } from './guards/guard-types.ts';
import { changeLanguage, loadMessageParts } from './i18n/i18n.ts';
import { AppShell } from './layout/app-shell.tsx';
import { RoutingError } from './layout/routing-error.tsx';
import { matchRoute, pathFor } from './routes/match-route.ts';
import { type AppRoute, ROUTES, type RouteName } from './routes/route-table.ts';
import { AREA_MESSAGES, SCREENS } from './routes/screens.ts';
import { checkAuthOnce } from './session/auth-check.ts';
import { resetValue, storeReferralToken, storeResetValue } from './session/browser-storage.ts';
import { ensureSubscription } from './session/current-subscription.ts';
import { getSession } from './session/session-store.ts';
import { endSession } from './session/sign-out.ts';
import { notifyRequestError } from './ui/toast.tsx';

/** What the shell reads from the matched route: its name and header type. */
export interface RouteHandle {
  route: AppRoute;
}

// The home page and the 404 are in the first bundle; every other screen comes with its area.
const EAGER: Partial<Record<RouteName, RouteObject['Component']>> = {
  home: HomePage,
  referral: HomePage,
  'page-not-found': NotFoundPage,
};

function screenRoute(route: AppRoute): RouteObject {
  const handle: RouteHandle = { route };
  const common = { id: route.name, handle };
  const eager = EAGER[route.name];
  const placement = route.path === '' ? { index: true as const } : { path: route.path };
  if (eager) return { ...common, ...placement, Component: eager };
  return {
    ...common,
    ...placement,
    lazy: async () => {
      const load = SCREENS[route.name];
      const [Screen] = await Promise.all([load?.(), loadMessageParts(AREA_MESSAGES[route.area])]);
      return { Component: Screen ?? (() => <UnavailableScreen name={route.name} />) };
    },
  };
}

function guardState(config: AppConfig): GuardState {
  const session = getSession();
  return {
    defaultLocale: config.defaultLocale,
    locales: config.locales,
    features: config.features,
    user: session.user,
    subscription: session.subscription,
    accessPages: session.accessPages,
    hasResetValue: resetValue() !== null,
    isMainSite: false,
  };
}

function runEffects(effects: readonly Effect[] = []): void {
  for (const effect of effects) {
    if (effect.type === 'joinReferral') storeReferralToken(effect.token);
    if (effect.type === 'storeResetValue') storeResetValue(effect.challenge);
  }
}

async function follow(decision: Decision): Promise<RootData | null> {
  if (decision.kind === 'allow') return null;
  if (decision.kind === 'unavailable') return { unavailable: decision.missing };
  if (decision.kind === 'logout') {
    await endSession({ emailChangeFailed: decision.emailChangeFailed });
    throw redirect(decision.retry);
  }
  if (decision.kind === 'redirect') runEffects(decision.effects);
  throw redirect(decision.to);
}

/**
 * One guard for the whole tree (DESIGN: React Router runs matched loaders in parallel, so
 * the decision is made once, here, before any screen opens). It runs on every navigation.
 */
function rootLoader(config: AppConfig) {
  return async ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const first = url.pathname.split('/')[1] ?? '';
    const lang = config.locales.find((locale) => locale === first) ?? config.defaultLocale;
    // The words follow the path however it changed: the switch, Back, a sign-in link.
    if (lang === first && i18next.language !== lang) await changeLanguage(lang);
    if (!(await checkAuthOnce())) {
      const signin = pathFor('signin', lang);
      if (url.pathname !== signin) throw redirect(signin);
    }
    const below = url.pathname.split('/').slice(2).join('/');
    const failure = matchRoute(below)?.route.meta?.awaitSubscription
      ? await subscriptionFailure()
      : undefined;
    const decision = decide({ pathname: url.pathname, search: url.search }, guardState(config));
    // §8 a failed request shows a danger toast. The page still opens with the subscription
    // unknown, unless its rule needs it: then the shell offers to try again. Throwing here
    // would send the user to /en, whose home would retry the same failing fetch.
    if (failure !== undefined) notifyRequestError(failure);
    return follow(decision);
  };
}

/** What the root loader hands the shell: set when the route cannot open yet. */
export interface RootData {
  unavailable?: 'subscription';
}

async function subscriptionFailure(): Promise<unknown> {
  try {
    await ensureSubscription();
    return undefined;
  } catch (error) {
    return error ?? new Error('subscription unavailable');
  }
}

export function appRoutes(config: AppConfig): RouteObject[] {
  return [
    {
      id: 'root',
      path: '/',
      loader: rootLoader(config),
      shouldRevalidate: () => true,
      Component: AppShell,
      ErrorBoundary: RoutingError,
      HydrateFallback: () => null,
      children: [
        { path: ':lang', children: ROUTES.map(screenRoute) },
        // Paths without a language never render: the guard redirects them first.
        { path: '*', Component: NotFoundPage },
      ],
    },
  ];
}

export function createRouter(config: AppConfig) {
  return createBrowserRouter(appRoutes(config));
}
