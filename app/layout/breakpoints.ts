import type { Role } from '#shared/roles.ts';

// §9 Breakpoints. Mobile is below 768 px: the aside is hidden and a burger opens the menu.
export const MOBILE_BELOW = 768;

export type Size = 'small' | 'medium' | 'large';

/** Lower bounds of medium and large, per §9 table. */
export interface BreakpointTable {
  medium: number;
  large: number;
}

export const WITH_ASIDE_OPEN: BreakpointTable = { medium: 1068, large: 1324 };
export const WITH_ASIDE_CLOSED: BreakpointTable = { medium: 840, large: 1096 };
export const CONTENT: BreakpointTable = { medium: 768, large: 1244 };

/** §9 "Side panel toggle breakpoint: 1096 for USER, 1670 for other roles". */
export function sidePanelBreakpoint(role: Role): number {
  return role === 'USER' ? 1096 : 1670;
}

export function sizeFor(width: number, table: BreakpointTable): Size {
  if (width >= table.large) return 'large';
  if (width >= table.medium) return 'medium';
  return 'small';
}

export function isMobile(width: number): boolean {
  return width < MOBILE_BELOW;
}

/** The content size the screens lay out for, given the aside's state. */
export function contentSize(width: number, asideOpen: boolean | null): Size {
  if (asideOpen === null) return sizeFor(width, CONTENT);
  return sizeFor(width, asideOpen ? WITH_ASIDE_OPEN : WITH_ASIDE_CLOSED);
}
