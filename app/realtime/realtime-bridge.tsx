import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { isLang } from '#shared/locales.ts';
import { isApiError } from '../api/api-error.ts';
import { call } from '../api/client.ts';
import { useAppConfig } from '../lib/app-config-context.ts';
import { applyUserChange, type UserChangeEffects } from '../session/apply-user-change.ts';
import { storeUser } from '../session/browser-storage.ts';
import { refreshSubscription } from '../session/current-subscription.ts';
import { authUserCall } from '../session/session-calls.ts';
import { getSession, useSession } from '../session/session-store.ts';
import { userChangeEffects } from '../session/user-change-effects.ts';
import { emitFleetServers, emitLive, onWantedChannels, wantedChannels } from './live-signals.ts';

/** Takes a new value of the user from a live event through the §4 reactions. */
async function applyLive(next: Parameters<typeof applyUserChange>[0], effects: UserChangeEffects) {
  if (next) storeUser(next);
  await applyUserChange(next, effects);
}

/**
 * The live side of the session, mounted once in the page shell: the websocket while a user
 * is signed in (its code loads only then). Sign-outs from other tabs or the browser
 * extension are heard by layout/session-signals.tsx.
 */
export function RealtimeBridge() {
  const config = useAppConfig();
  const navigate = useNavigate();
  const { lang } = useParams();
  const userId = useSession((session) => session.user?.id);
  const language = isLang(lang) ? lang : config.defaultLocale;
  // The latest navigation, for events that arrive after the page moved on.
  const effects = useRef<UserChangeEffects>(userChangeEffects(navigate, language));
  effects.current = userChangeEffects(navigate, language);

  useEffect(() => {
    // Without a key live updates are off (component tests).
    if (userId === undefined || !config.realtime.key) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void Promise.all([import('./realtime-client.ts'), import('./realtime-events.ts')]).then(
      ([{ connectRealtime }, { dispatchRealtimeEvent, dispatchFleetEvent }]) => {
        if (cancelled) return;
        const connection = connectRealtime({
          settings: config.realtime,
          userId,
          // A change made between the page's last fetch and this join (a renewal, a webhook)
          // was published to nobody: the subscription the page holds is fetched again.
          onJoined: () => {
            if (getSession().subscription === undefined) return;
            refreshSubscription().catch((error: unknown) =>
              console.error('Subscription refresh failed', error),
            );
          },
          onEvent: (name, data) =>
            dispatchRealtimeEvent(name, data, {
              userUpdated: (user) => {
                const current = getSession().user;
                if (current?.id === user.id)
                  void applyLive({ ...current, ...user }, effects.current);
              },
              subscriptionUpdated: () => {
                refreshSubscription().catch((error: unknown) =>
                  console.error('Subscription refresh failed', error),
                );
                emitLive('subscription');
              },
              familySharingUpdated: () => emitLive('family'),
              referralUpdated: () => emitLive('referral'),
              vpnUpdated: () => emitLive('vpn'),
              deviceDeleted: () => {
                // Was it this page's session? The server knows: a 401 means it was.
                const role = getSession().user?.role;
                call(authUserCall(role)).catch((error: unknown) => {
                  if (isApiError(error) && error.status === 401) {
                    void applyLive(null, effects.current);
                  }
                });
              },
            }),
          extraChannels: {
            wanted: wantedChannels,
            onWantedChange: onWantedChannels,
            onChannelEvent: (_channel, name, data) =>
              dispatchFleetEvent(name, data, {
                serversUpdated: emitFleetServers,
                locationsUpdated: () => emitLive('locations'),
              }),
          },
        });
        stop = () => connection.stop();
      },
      (error: unknown) => console.error('Realtime unavailable', error),
    );
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [userId, config.realtime]);

  return null;
}
