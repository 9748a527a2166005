import { afterEach, describe, expect, it, vi } from 'vitest';
import { testUser } from '../test/test-user.ts';
import { dispatchFleetEvent, dispatchRealtimeEvent } from './realtime-events.ts';

const user = testUser({ id: 7 });

function handlers() {
  return {
    userUpdated: vi.fn(),
    deviceDeleted: vi.fn(),
    subscriptionUpdated: vi.fn(),
    familySharingUpdated: vi.fn(),
    referralUpdated: vi.fn(),
    vpnUpdated: vi.fn(),
  };
}

afterEach(() => vi.restoreAllMocks());

// §4: the prefix before the backslash selects the handler; only Users is handled (§8).
describe('live event dispatch', () => {
  it('hands a user update to the users handler', () => {
    const users = handlers();
    dispatchRealtimeEvent('Users\\UserUpdated', { user }, users);
    expect(users.userUpdated).toHaveBeenCalledWith(user);
    expect(users.deviceDeleted).not.toHaveBeenCalled();
  });

  it('hands a device deletion to the users handler', () => {
    const users = handlers();
    dispatchRealtimeEvent('Users\\DeviceDeleted', { device_id: 'abc' }, users);
    expect(users.deviceDeleted).toHaveBeenCalledWith('abc');
  });

  it('hands a subscription change to the users handler', () => {
    const users = handlers();
    dispatchRealtimeEvent('Users\\SubscriptionUpdated', { subscription_id: 4 }, users);
    dispatchRealtimeEvent('Users\\SubscriptionUpdated', { subscription_id: 'x' }, users);
    expect(users.subscriptionUpdated).toHaveBeenCalledOnce();
  });

  it('hands family and referral changes to the users handler', () => {
    const users = handlers();
    dispatchRealtimeEvent('Users\\FamilySharingUpdated', { group_id: 3 }, users);
    dispatchRealtimeEvent('Users\\FamilySharingUpdated', { group_id: 'x' }, users);
    dispatchRealtimeEvent('Users\\ReferralUpdated', { referrals_count: 2 }, users);
    expect(users.familySharingUpdated).toHaveBeenCalledOnce();
    expect(users.referralUpdated).toHaveBeenCalledOnce();
    expect(users.subscriptionUpdated).not.toHaveBeenCalled();
  });

  it('hands a change of the WireGuard devices to the users handler', () => {
    const users = handlers();
    dispatchRealtimeEvent('Users\\VpnUpdated', { devices: 2 }, users);
    dispatchRealtimeEvent('Users\\VpnUpdated', { devices: 'x' }, users);
    expect(users.vpnUpdated).toHaveBeenCalledOnce();
  });

  it('hands the fleet channels’ events to the fleet handlers, ignoring malformed ones', () => {
    const fleet = { serversUpdated: vi.fn(), locationsUpdated: vi.fn() };
    const state = {
      server_id: 3,
      status: 'online',
      load: 40,
      devices: 12,
      active_peers: 9,
      last_seen_at: '2026-11-27T10:00:00.000Z',
    };
    dispatchFleetEvent('Fleet\\ServersUpdated', { servers: [state] }, fleet);
    dispatchFleetEvent('Fleet\\ServersUpdated', { servers: [{ ...state, status: 'gone' }] }, fleet);
    dispatchFleetEvent('Fleet\\LocationsUpdated', {}, fleet);
    dispatchFleetEvent('Users\\UserUpdated', { user }, fleet);
    expect(fleet.serversUpdated).toHaveBeenCalledExactlyOnceWith([state], []);
    dispatchFleetEvent('Fleet\\ServersUpdated', { servers: [], removed: [4] }, fleet);
    expect(fleet.serversUpdated).toHaveBeenLastCalledWith([], [4]);
    expect(fleet.locationsUpdated).toHaveBeenCalledOnce();
  });

  it('warns about an unknown module and does nothing else', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const users = handlers();
    dispatchRealtimeEvent('Billing\\InvoicePaid', { id: 1 }, users);
    expect(warn).toHaveBeenCalledWith('Unknown websocket module', 'Billing');
    expect(users.userUpdated).not.toHaveBeenCalled();
  });

  it('ignores malformed data and unknown users events', () => {
    const users = handlers();
    dispatchRealtimeEvent('Users\\UserUpdated', { user: { id: 'x' } }, users);
    dispatchRealtimeEvent('Users\\SomethingNew', {}, users);
    expect(users.userUpdated).not.toHaveBeenCalled();
    expect(users.deviceDeleted).not.toHaveBeenCalled();
  });
});
