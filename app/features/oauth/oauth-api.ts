import {
  type ApproveDeviceRequest,
  type DeviceCodeResponse,
  deviceSignInEndpoints as device,
} from '#shared/contracts/device-sign-in.ts';
import { type InteractionDetailsResponse, oidcEndpoints as oidc } from '#shared/contracts/oidc.ts';
import { call } from '../../api/client.ts';

/** The calls of the screens where a person lets an app of ours sign in (issue 24). */
export const oauthApi = {
  lookupDevice: (userCode: string): Promise<DeviceCodeResponse> =>
    call(device.lookup, { query: { user_code: userCode } }),
  approveDevice: (body: ApproveDeviceRequest) => call(device.approve, { body }),
  denyDevice: (userCode: string) => call(device.deny, { body: { user_code: userCode } }),
  consentDetails: (uid: string): Promise<InteractionDetailsResponse> =>
    call(oidc.interactionDetails, { params: { uid } }),
  confirm: (uid: string) => call(oidc.confirm, { params: { uid } }),
  abort: (uid: string) => call(oidc.abort, { params: { uid } }),
};
