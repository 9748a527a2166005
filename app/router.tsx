import i18next from 'i18next';
import { type ComponentType, useEffect, useState } from 'react';
import {
  createBrowserRouter,
  type LoaderFunctionArgs,
  type RouteObject,
  redirect,
} from 'react-router';
import type { AppConfig } from '#shared/contracts/app-config.ts';
import { NotFoundPage } from './features/not-found/not-found-page.tsx';
import { UnavailableScreen } from './features/unavailable/unavailable-screen.tsx';
import { decide } from './guards/decide.ts';
import type { Decision, Effect, GuardState } from './guards/guard-types.ts';
import { changeLanguage, loadMessageParts } from './i18n/i18n.ts';
import { AppShell } from './layout/app-shell.tsx';
import { RoutingError } from './layout/routing-error.tsx';
import { matchRoute, pathFor } from './routes/match-route.ts';
import { type AppRoute, ROUTES, type RouteName } from './routes/route-table.ts';
import { AREA_MESSAGES, loadScreenCode } from './routes/screens.ts';
import { checkAuthOnce } from './session/auth-check.ts';
import { resetValue, storeReferralToken, storeResetValue } from './session/browser-storage.ts';
import { ensureSubscription } from './session/current-subscription.ts';
import { joinStoredReferralSoon } from './session/referral-watch.ts';
import { getSession } from './session/session-store.ts';
import { endSession } from './session/sign-out.ts';
import { notifyRequestError } from './ui/toast.tsx';

/** What the shell reads from the matched route: its name and header type. */
export interface RouteHandle {
  route: AppRoute;
}

// The 404 is in the first bundle; every other screen is a chunk of its own (the public
// pages, the home among them, come as HTML from the server first: issue 23).
const EAGER: Partial<Record<RouteName, RouteObject['Component']>> = {
  'page-not-found': NotFoundPage,
};

/**
 * Screens fetched so far. The root loader fetches a screen, with its messages, only once the
 * guard has let the route open: a customer who types an admin path downloads nothing of the
 * admin (a route's own `lazy` would start before the guard decides).
 */
const loadedScreens = new Map<RouteName, ComponentType>();

async function loadScreen(route: AppRoute): Promise<void> {
  if (EAGER[route.name]) return;
  const [Screen] = await Promise.all([
    loadedScreens.get(route.name) ?? loadScreenCode(route),
    loadMessageParts(AREA_MESSAGES[route.area]),
  ]);
  loadedScreens.set(route.name, Screen ?? (() => <UnavailableScreen name={route.name} />));
}

/** The screen the root loader fetched for this route. */
function LoadedScreen({ route }: { route: AppRoute }) {
  const [Screen, setScreen] = useState(() => loadedScreens.get(route.name));
  useEffect(() => {
    // Only when rendered without the loader having run for it (never in the app's flow).
    if (!Screen) void loadScreen(route).then(() => setScreen(() => loadedScreens.get(route.name)));
  }, [Screen, route]);
  return Screen ? <Screen /> : null;
}

function screenRoute(route: AppRoute): RouteObject {
  const handle: RouteHandle = { route };
  const placement = route.path === '' ? { index: true as const } : { path: route.path };
  const Component = EAGER[route.name] ?? (() => <LoadedScreen route={route} />);
  return { id: route.name, handle, ...placement, Component };
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
    if (effect.type === 'joinReferral') {
      storeReferralToken(effect.token);
      joinStoredReferralSoon({ again: true });
    }
    if (effect.type === 'storeResetValue') storeResetValue(effect.challenge);
  }
}

async function follow(decision: Decision): Promise<RootData | null> {
  if (decision.kind === 'allow') {
    await loadScreen(decision.route);
    return null;
  }
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
