/** The seller printed on every invoice: the company running the product. */
export const SELLER = {
  name: 'Shieldline VPN Ltd.',
  lines: ['1 Privacy Lane', '1010 Vienna', 'Austria'],
  taxId: 'ATU00000000',
};
