import { afterEach, describe, expect, it, vi } from 'vitest';
import { testUser } from '../test/test-user.ts';
import { dispatchRealtimeEvent } from './realtime-events.ts';

const user = testUser({ id: 7 });

function handlers() {
  return {
    userUpdated: vi.fn(),
    deviceDeleted: vi.fn(),
    subscriptionUpdated: vi.fn(),
    familySharingUpdated: vi.fn(),
    referralUpdated: vi.fn(),
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
