// §1 Feature flags, switched on by the FEATURES configuration variable.
export const FEATURES = [
  'billing',
  'referral',
  'users',
  'logging',
  'auth',
  'family_sharing',
] as const;
export type Feature = (typeof FEATURES)[number];
