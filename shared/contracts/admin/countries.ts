import { z } from 'zod';
import { LANGS } from '../../locales.ts';
import { endpoint } from '../endpoint.ts';

// §7 GET /countries/get: every ISO 3166-1 country, named in the language asked for (the
// page's), for the country fields of the admin's forms.

export const country = z.object({
  id: z.number().int(),
  /** ISO 3166-1 alpha-2, upper case. */
  code: z.string(),
  name: z.string(),
});
export type Country = z.infer<typeof country>;

export const countriesQuery = z.object({
  lang: z.enum(LANGS, { error: 'input_errors.field_is_invalid' }).default('en'),
});

export const countriesResponse = z.object({ items: z.array(country) });
export type CountriesResponse = z.infer<typeof countriesResponse>;

export const countryEndpoints = {
  list: endpoint({
    method: 'GET',
    base: 'dashboard',
    path: '/countries/get',
    access: { permission: 'customers' },
    tag: 'countries',
    summary: 'Every country, named in the language asked for, by name',
    query: countriesQuery,
    response: countriesResponse,
  }),
};
