import type { Endpoint, RequestBody } from '#shared/contracts/endpoint.ts';
import { passkeyEndpoints } from '#shared/contracts/passkeys.ts';
import { isStaff, type Role } from '#shared/roles.ts';
import { call } from '../../api/client.ts';

type Twin = { account: Endpoint; dashboard: Endpoint };

/** The own account's passkeys: on the account base for customers, the dashboard's for staff. */
export function passkeysApi(role: Role) {
  const staff = isStaff(role);
  // Both twins take and answer the same; only the URL differs.
  const at = <T extends Twin>(twin: T) => (staff ? twin.dashboard : twin.account) as T['account'];
  const e = passkeyEndpoints;
  return {
    list: (signal?: AbortSignal) => call(at(e.list), {}, { signal }),
    registrationOptions: (password: string) =>
      call(at(e.registrationOptions), { body: { password } }),
    register: (body: RequestBody<typeof e.register.account>) => call(at(e.register), { body }),
    rename: (id: number, name: string) => call(at(e.rename), { body: { id, name } }),
    remove: (id: number, password: string) => call(at(e.remove), { body: { id, password } }),
  };
}

export type PasskeysApi = ReturnType<typeof passkeysApi>;

/** React-query key of the passkeys list. */
export const passkeysKey = ['account', 'passkeys'] as const;
