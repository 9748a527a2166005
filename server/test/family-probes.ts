import { expect } from 'vitest';
import { familySharingEndpoints as family } from '#shared/contracts/family-sharing.ts';
import type { App } from '../http/types.ts';
import type { Shop } from './billing-kit.ts';
import { signedInUser, type TestSession } from './test-sessions.ts';

// Record probes of family sharing for the authorization matrix: a seat of one family, or an
// invite to one address, named by someone else is refused and stays as it was.

type Send = (
  method: string,
  url: string,
  options?: { cookie?: string | undefined; payload?: string | undefined },
) => Promise<{ status: number; body: string }>;

interface Probe {
  fields: readonly string[];
  cases: readonly { owner: 'USER'; intruder: 'USER' }[];
  run: (url: string) => Promise<void>;
}

export function familyRecordProbes(app: App, shop: Shop, send: Send): Record<string, Probe> {
  /** An owner on the family plan with a group, and one open invite to a new customer. */
  async function familyWithInvite() {
    const owner = await signedInUser(app);
    expect((await shop.buy(owner, { plan: 'Family, 1 year' })).status).toBe(200);
    expect((await shop.call(family.create, { cookie: owner.cookie })).status).toBe(200);
    const invitee = await signedInUser(app);
    const invited = await shop.call(family.invite, {
      cookie: owner.cookie,
      body: { email: invitee.user.email },
    });
    const seat = invited.data.familySharing.users.find((u) => u.email === invitee.user.email);
    if (!seat) throw new Error('the invite made no seat');
    return { owner, invitee, seatId: seat.user_id };
  }

  const seatsOf = async (owner: TestSession) =>
    (await shop.call(family.view, { cookie: owner.cookie })).data.familySharing.users;

  /** Another family's owner names the seat: 404 or 403, the seat unchanged; the owner may. */
  async function seatProbe(url: string): Promise<void> {
    const { owner, seatId } = await familyWithInvite();
    const { owner: intruder } = await familyWithInvite();
    const before = await seatsOf(owner);
    const payload = JSON.stringify({ user_id: seatId });
    const attempt = await send('POST', url, { cookie: intruder.cookie, payload });
    expect([403, 404], attempt.body).toContain(attempt.status);
    expect(await seatsOf(owner)).toEqual(before);
    const own = await send('POST', url, { cookie: owner.cookie, payload });
    expect(own.status, own.body).toBe(200);
  }

  /** Someone else names an invite to another address: refused; the invitee may answer it. */
  async function inviteProbe(url: string): Promise<void> {
    const { owner, invitee } = await familyWithInvite();
    const stranger = await signedInUser(app);
    const invites = (await shop.call(family.view, { cookie: invitee.cookie })).data.familySharing
      .invites;
    const payload = JSON.stringify({ invite_id: invites[0]?.invite_id });
    const before = await seatsOf(owner);
    const attempt = await send('POST', url, { cookie: stranger.cookie, payload });
    expect([403, 404], attempt.body).toContain(attempt.status);
    expect(await seatsOf(owner)).toEqual(before);
    const own = await send('POST', url, { cookie: invitee.cookie, payload });
    expect(own.status, own.body).toBe(200);
  }

  const customers = [{ owner: 'USER', intruder: 'USER' }] as const;
  return {
    [`POST ${family.remove.url}`]: { fields: ['body.user_id'], cases: customers, run: seatProbe },
    [`POST ${family.resend.url}`]: { fields: ['body.user_id'], cases: customers, run: seatProbe },
    [`POST ${family.accept.url}`]: {
      fields: ['body.invite_id'],
      cases: customers,
      run: inviteProbe,
    },
    [`POST ${family.decline.url}`]: {
      fields: ['body.invite_id'],
      cases: customers,
      run: inviteProbe,
    },
  };
}
