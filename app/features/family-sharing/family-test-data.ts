import type { FamilySharing } from '#shared/contracts/family-sharing.ts';

/** GET /family-sharing for someone in no family, with `overrides` (component tests). */
export function familyView(overrides: Partial<FamilySharing> = {}): FamilySharing {
  return {
    role: 'none',
    group_id: null,
    seats: 0,
    seats_used: 0,
    can_create: false,
    owner: null,
    users: [],
    invites: [],
    access_until: null,
    own_plan_renews: false,
    ...overrides,
  };
}
