import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_PATHS,
  devicesQuery,
  devicesResponse,
  logoutDeviceRequest,
  passwordConfirmation,
} from '#shared/contracts/account.ts';
import { successResponse } from '#shared/contracts/auth.ts';
import type { ModuleOptions } from '../../http/api.ts';
import { requireActiveAccount } from '../account/account-access.ts';
import { clearSessionCookie } from '../auth/auth-plugin.ts';
import { DevicesService } from './devices-service.ts';

const SUCCESS = { success: true } as const;

/** §7 devices: the signed-in browsers of the user, for customers and staff alike. */
export const devicesRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { area }) => {
  const devices = new DevicesService(app);
  const tags = [area === 'dashboard' ? 'dashboard devices' : 'account devices'];

  app.get(
    ACCOUNT_PATHS.devices,
    {
      schema: {
        tags,
        summary: 'Signed-in devices, a page at a time; the current one first',
        querystring: devicesQuery,
        response: { 200: devicesResponse },
      },
    },
    async (request) => {
      const { user, session } = requireActiveAccount(request, area);
      return devices.list(user, session.id, request.query);
    },
  );

  app.post(
    ACCOUNT_PATHS.logoutDevice,
    {
      schema: {
        tags,
        summary: 'Sign one device out',
        body: logoutDeviceRequest,
        response: { 200: successResponse },
      },
    },
    async (request, reply) => {
      const { user, session } = requireActiveAccount(request, area);
      const { password, id } = request.body;
      await devices.logOutDevice(request, user, password, id);
      if (id === session.id) clearSessionCookie(reply, app.config);
      return SUCCESS;
    },
  );

  app.post(
    ACCOUNT_PATHS.logoutOtherDevices,
    {
      schema: {
        tags,
        summary: 'Sign every other device out',
        body: passwordConfirmation,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      const { user, session } = requireActiveAccount(request, area);
      await devices.logOutOtherDevices(request, user, request.body.password, session.id);
      return SUCCESS;
    },
  );

  app.post(
    ACCOUNT_PATHS.logoutAllDevices,
    {
      schema: {
        tags,
        summary: 'Sign every device out, this one too',
        body: passwordConfirmation,
        response: { 200: successResponse },
      },
    },
    async (request, reply) => {
      const { user } = requireActiveAccount(request, area);
      await devices.logOutAllDevices(request, user, request.body.password);
      clearSessionCookie(reply, app.config);
      return SUCCESS;
    },
  );
};
