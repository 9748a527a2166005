import {
  empEndpoints as emp,
  unsubscribeLinkEndpoints as link,
  notificationEndpoints as own,
  UNSUBSCRIBE_PAGE,
} from '#shared/contracts/notifications.ts';
import { ownAccountRoutes, type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { EmailListsService } from './email-lists-service.ts';
import { SubscriptionsService } from './subscriptions-service.ts';
import { listOfLink, unsubscribeByLink } from './unsubscribe-link.ts';

const SUCCESS = { success: true } as const;
const FORM = 'application/x-www-form-urlencoded';

/** §7 /notifications/* (own subscriptions), /emp (staff), and a list mail's unsubscribe link. */
export function notificationRoutes(app: App): Route[] {
  const subscriptions = new SubscriptionsService(app.db);
  const lists = new EmailListsService({ db: app.db, queue: app.queue });
  const linkDeps = { db: app.db, rateLimiter: app.rateLimiter };

  return [
    ...ownAccountRoutes(own.lists, ({ auth, query }) => subscriptions.lists(auth.user, query)),
    ...ownAccountRoutes(own.subscriptions, ({ auth, query }) =>
      subscriptions.subscriptions(auth.user, query),
    ),
    ...ownAccountRoutes(own.subscribe, ({ auth, body }) =>
      subscriptions.subscribe(auth.user, body.listUuid),
    ),
    ...ownAccountRoutes(own.unsubscribe, async ({ auth, body }) => {
      await subscriptions.unsubscribe(auth.user, body.subscriberUuid);
      return SUCCESS;
    }),
    ...ownAccountRoutes(own.unsubscribeAll, async ({ auth }) => ({
      ...SUCCESS,
      removed: await subscriptions.unsubscribeAll(auth.user),
    })),

    route(emp.list, ({ query }) => lists.list(query, app.config.notificationMailsPerSecond)),
    route(emp.update, ({ request, auth, body }) =>
      lists.update({ request, userId: auth.user.id }, body),
    ),
    route(emp.send, ({ request, auth, body }) =>
      lists.send({ request, userId: auth.user.id }, body),
    ),
    route(emp.sends, ({ query }) => lists.sends(query)),
    route(emp.cancelSend, ({ request, auth, body }) =>
      lists.cancelSend({ request, userId: auth.user.id }, body),
    ),

    // RFC 8058: the mail app's POST carries no cookie and no CSRF header, only the form
    // `List-Unsubscribe=One-Click`; the link is the credential. The form parser lives in this
    // route's scope only.
    route(
      link.oneClick,
      async ({ request, params }) => {
        await unsubscribeByLink(linkDeps, request, params.subscriberUuid);
        return SUCCESS;
      },
      {
        crossSitePost: true,
        scope: (scope) =>
          scope.addContentTypeParser(
            FORM,
            { parseAs: 'string', bodyLimit: 1_024 },
            (_r, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
          ),
      },
    ),
    route(link.oneClickPage, ({ reply, params }) =>
      reply.redirect(
        `/${app.config.defaultLocale}/${UNSUBSCRIBE_PAGE}/${encodeURIComponent(params.subscriberUuid)}`,
        303,
      ),
    ),
    route(link.view, async ({ request, params }) => ({
      list_name: await listOfLink(linkDeps, request, params.subscriberUuid),
    })),
  ];
}
