// §7 The four API bases, and the VPN nodes' own; every endpoint lives under exactly one.
export const API_BASES = {
  dashboard: '/api/dashboard/v1',
  account: '/api/account/v1',
  public: '/api/public/v1',
  all: '/api/all/v1',
  /** VPN nodes (role VPN_SERVER), with a bearer token: no person's session opens it. */
  node: '/api/node/v1',
} as const;

export type ApiArea = keyof typeof API_BASES;
