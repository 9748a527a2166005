import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeChallenge } from '#shared/challenge.ts';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import {
  familySharingEndpoints as e,
  type FamilySharing,
} from '#shared/contracts/family-sharing.ts';
import { emitLive } from '../../realtime/live-signals.ts';
import { renderApp, testUser } from '../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../test/stub-fetch.ts';
import { familyView } from './family-test-data.ts';

afterEach(() => vi.unstubAllGlobals());

const OWNER = { id: 7, name: 'Olivia Owner', email: 'olivia@example.com', photo: null };
const WEEK = '2030-01-08T10:00:00.000Z';

const ownerFamily = (): FamilySharing =>
  familyView({
    role: 'owner',
    group_id: 3,
    seats: 6,
    seats_used: 2,
    owner: OWNER,
    users: [
      {
        user_id: 0,
        owner: true,
        accepted_at: '2030-01-01T10:00:00.000Z',
        declined_at: null,
        expired_at: null,
        invite_expires_at: null,
        email: OWNER.email,
        user: OWNER,
      },
      {
        user_id: 11,
        owner: false,
        accepted_at: '2030-01-02T10:00:00.000Z',
        declined_at: null,
        expired_at: null,
        invite_expires_at: null,
        email: 'bob@example.com',
        user: { id: 9, name: 'Bob', email: 'bob@example.com', photo: null },
      },
      {
        user_id: 12,
        owner: false,
        accepted_at: null,
        declined_at: null,
        expired_at: null,
        invite_expires_at: WEEK,
        email: 'carol@example.com',
        user: null,
      },
    ],
  });

function serve(
  view: { current: FamilySharing },
  posts: Record<string, (body: unknown) => Response> = {},
) {
  const routes: Record<string, (request: Request) => Response | Promise<Response>> = {
    [e.view.url]: () => jsonResponse(200, { familySharing: view.current }),
    [currentSubscriptionEndpoint.url]: () =>
      jsonResponse(200, { subscription: null, last_invoice_finalizing: false }),
  };
  for (const [url, answer] of Object.entries(posts)) {
    routes[url] = async (request) => answer(await request.json().catch(() => undefined));
  }
  return stubFetch(routes);
}

describe('family sharing page', () => {
  it('shows the owner’s places, members and invites; an invite error stays under the field', async () => {
    const view = { current: ownerFamily() };
    serve(view, {
      [e.invite.url]: () =>
        jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: { email: ['family.errors.invitee_in_group'] },
          errors_info: [],
        }),
    });
    const { screen } = await renderApp('/en/features/family-sharing', testUser());
    const members = screen.getByRole('region', { name: 'Your family' });
    await expect.element(members.getByText('2 of 6 places taken')).toBeVisible();
    await expect.element(members.getByText('Member since', { exact: false })).toBeVisible();
    await expect.element(members.getByText('Invite valid until', { exact: false })).toBeVisible();
    await expect
      .element(screen.getByRole('button', { name: 'Resend the invite to carol@example.com' }))
      .toBeVisible();

    const form = screen.getByRole('region', { name: 'Invite someone' });
    await form.getByLabelText('E-mail address').fill('dave@example.com');
    await form.getByRole('button', { name: 'Send invite' }).click();
    await expect.element(form.getByText('This person already belongs to a family.')).toBeVisible();
    await expect.element(form.getByLabelText('E-mail address')).toHaveValue('dave@example.com');
    await expect
      .element(form.getByLabelText('E-mail address'))
      .toHaveAttribute('aria-invalid', 'true');
  });

  it('removes a member only after the confirmation, and shows the answer', async () => {
    const view = { current: ownerFamily() };
    const removed: unknown[] = [];
    serve(view, {
      [e.remove.url]: (body) => {
        removed.push(body);
        const next = ownerFamily();
        return jsonResponse(200, {
          familySharing: {
            ...next,
            seats_used: 1,
            users: next.users.filter((u) => u.user_id !== 11),
          },
        });
      },
    });
    const { screen } = await renderApp('/en/features/family-sharing', testUser());
    await screen.getByRole('button', { name: 'Remove Bob' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Remove this member?' });
    await expect.element(dialog.getByText('Bob loses VPN access', { exact: false })).toBeVisible();
    expect(removed).toEqual([]);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect.element(screen.getByText('1 of 6 places taken')).toBeVisible();
    expect(removed).toEqual([{ user_id: 11 }]);
    await expect
      .element(screen.getByRole('button', { name: 'Remove Bob' }))
      .not.toBeInTheDocument();
  });

  it('tells an invitee that their own plan stops renewing before they accept, and follows live changes', async () => {
    const view = {
      current: familyView({
        role: 'invitee',
        own_plan_renews: true,
        invites: [
          {
            invite_id: 12,
            owner: OWNER,
            invited_at: '2030-01-01T10:00:00.000Z',
            expires_at: WEEK,
            declined_at: null,
            expired_at: null,
          },
        ],
      }),
    };
    serve(view);
    const { screen } = await renderApp('/en/features/family-sharing', testUser());
    await expect
      .element(screen.getByText('Olivia Owner invites you to their family plan'))
      .toBeVisible();
    await expect.element(screen.getByTestId('own-plan-notice')).toHaveTextContent(/stops renewing/);

    // The owner withdrew the invite elsewhere: the live event brings the new state.
    view.current = familyView();
    emitLive('family');
    await expect
      .element(screen.getByRole('heading', { name: 'One plan for the whole family' }))
      .toBeVisible();
    await expect.element(screen.getByRole('link', { name: 'See the family plan' })).toBeVisible();
  });

  it('lets a member leave after a confirmation', async () => {
    const view = {
      current: familyView({
        role: 'member',
        group_id: 3,
        seats: 6,
        seats_used: 1,
        owner: OWNER,
        access_until: '2099-01-01T00:00:00.000Z',
      }),
    };
    serve(view, { [e.leave.url]: () => jsonResponse(200, { familySharing: familyView() }) });
    const { screen } = await renderApp('/en/features/family-sharing', testUser());
    await expect
      .element(screen.getByText('Olivia Owner shares their plan with you.'))
      .toBeVisible();
    await expect
      .element(screen.getByTestId('family-access'))
      .toHaveAttribute('data-active', 'true');
    await screen.getByRole('button', { name: 'Leave' }).click();
    await screen
      .getByRole('dialog', { name: 'Leave this family?' })
      .getByRole('button', { name: 'Leave' })
      .click();
    await expect
      .element(screen.getByRole('status').getByText('You left the family'))
      .toBeInTheDocument();
  });
});

describe('invite page', () => {
  const challenge = encodeChallenge({ email: 'new@example.com', token: 'a'.repeat(43) });

  it('sends a visitor to sign up or in and back, the link kept', async () => {
    serve({ current: familyView() });
    const { screen } = await renderApp(
      `/en/familysharing/invite/verify?challenge=${challenge}`,
      null,
    );
    await expect
      .element(screen.getByText('This invite was sent to new@example.com.'))
      .toBeVisible();
    const signup = screen.getByRole('link', { name: 'Create an account' });
    const href = new URL(signup.element().getAttribute('href') ?? '', window.location.origin);
    expect(href.pathname).toBe('/en/signup');
    expect(href.searchParams.get('challenge')).toBe(challenge);
    expect(href.searchParams.get('path')).toBe('/en/familysharing/invite/verify');
  });

  it('accepts with the mailed token when signed in as the invited address', async () => {
    const accepted: unknown[] = [];
    serve(
      { current: familyView() },
      {
        [e.accept.url]: (body) => {
          accepted.push(body);
          return jsonResponse(200, {
            familySharing: familyView({ role: 'member', owner: OWNER, group_id: 3 }),
          });
        },
      },
    );
    const { screen } = await renderApp(
      `/en/familysharing/invite/verify?challenge=${challenge}`,
      testUser({ email: 'new@example.com' }),
    );
    await screen.getByRole('button', { name: 'Accept' }).click();
    await expect
      .element(
        screen.getByText('You now have VPN access through Olivia Owner’s family plan.', {
          exact: false,
        }),
      )
      .toBeVisible();
    expect(accepted).toEqual([{ token: 'a'.repeat(43) }]);
  });
});
