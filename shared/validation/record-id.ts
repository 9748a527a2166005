import { z } from 'zod';

/** PostgreSQL's `integer`, what our serial ids are: a larger number names no record. */
export const INT4_MAX = 2_147_483_647;

const invalid = { error: 'input_errors.field_is_invalid' };

/** The id of a row with an `integer` key, from a path, a query or a body (coerced). */
export const recordId = z.coerce
  .number(invalid)
  .int(invalid)
  .positive(invalid)
  .max(INT4_MAX, invalid);

/** The same, in a JSON body where it must already be a number. */
export const recordIdNumber = z
  .number(invalid)
  .int(invalid)
  .positive(invalid)
  .max(INT4_MAX, invalid);
