import { useQuery } from '@tanstack/react-query';
import { contentEndpoints } from '#shared/contracts/admin/content.ts';
import { call } from '../../../api/client.ts';
import { useSession } from '../../../session/session-store.ts';

/** The content settings' query: the admin's panel changes them, every screen reads them. */
export const CONTENT_SETTINGS_KEY = ['admin', 'content', 'settings'];

/** The content settings as the server has them (whether authors may publish). */
export function useContentSettings(enabled = true) {
  return useQuery({
    queryKey: CONTENT_SETTINGS_KEY,
    queryFn: ({ signal }) => call(contentEndpoints.settings, {}, { signal }),
    enabled,
  });
}

/**
 * Whether the signed-in staff member may change what the live site shows (the server's rule,
 * `mayPublish`): an admin always, an author when an admin allows it; undefined until known.
 */
export function useMayPublish(): boolean | undefined {
  const admin = useSession((session) => session.user?.role === 'ADMIN');
  // An admin always may: the settings are asked for only about an author.
  const settings = useContentSettings(!admin);
  return admin || settings.data?.authors_can_publish;
}
