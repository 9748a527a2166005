/**
 * Someone of a family group as every screen names them: their name, else their e-mail
 * address (a member knows the address the invite came from; an invitee may have no account).
 */
export function personName(person: { name: string | null; email: string } | null, email = '') {
  return person?.name?.trim() || person?.email || email;
}
