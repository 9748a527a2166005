// §7 The four API bases; every endpoint lives under exactly one of them.
export const API_BASES = {
  dashboard: '/api/dashboard/v1',
  account: '/api/account/v1',
  public: '/api/public/v1',
  all: '/api/all/v1',
} as const;

export type ApiArea = keyof typeof API_BASES;
