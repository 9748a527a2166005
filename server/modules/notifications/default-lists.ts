/**
 * The lists every installation starts with (staff rename, describe, hide them; §7 has no
 * create or delete), as migration 0014 inserts them: reference data, there before any
 * process starts. Fixed ids let the demo and tests name them.
 */
export const DEFAULT_LISTS = [
  {
    uuid: '6f1c2a51-3d0e-4a8b-9b1e-0a7c5e2d1f01',
    name: 'Product news',
    description: 'New features, new apps and new server locations, about once a month.',
    visible: true,
    push: false,
    sort: 10,
  },
  {
    uuid: '6f1c2a51-3d0e-4a8b-9b1e-0a7c5e2d1f02',
    name: 'Offers and discounts',
    description: 'Seasonal deals and coupons for your plan and for friends.',
    visible: true,
    push: false,
    sort: 20,
  },
  {
    uuid: '6f1c2a51-3d0e-4a8b-9b1e-0a7c5e2d1f03',
    name: 'Security notices',
    description: 'Vulnerabilities that affect your devices and what to do about them.',
    visible: true,
    push: true,
    sort: 30,
  },
  {
    uuid: '6f1c2a51-3d0e-4a8b-9b1e-0a7c5e2d1f04',
    name: 'Service status',
    description: 'Planned maintenance and outages of our VPN servers.',
    visible: true,
    push: true,
    sort: 40,
  },
  {
    uuid: '6f1c2a51-3d0e-4a8b-9b1e-0a7c5e2d1f05',
    name: 'Beta testers',
    description: 'Early builds of the apps. Hidden until the beta programme opens.',
    visible: false,
    push: false,
    sort: 50,
  },
] as const;
