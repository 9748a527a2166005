import { describe, expect, it } from 'vitest';
import { contentSize, isMobile, sidePanelBreakpoint } from './breakpoints.ts';

describe('breakpoints (§9)', () => {
  it.each([
    [767, true],
    [768, false],
    [375, true],
  ])('width %i is mobile: %s', (width, mobile) => {
    expect(isMobile(width)).toBe(mobile);
  });

  it.each([
    [1324, true, 'large'],
    [1323, true, 'medium'],
    [1068, true, 'medium'],
    [1067, true, 'small'],
    [1096, false, 'large'],
    [1095, false, 'medium'],
    [840, false, 'medium'],
    [839, false, 'small'],
    [1244, null, 'large'],
    [1243, null, 'medium'],
    [768, null, 'medium'],
    [767, null, 'small'],
  ] as const)('width %i with aside %s is %s', (width, aside, size) => {
    expect(contentSize(width, aside)).toBe(size);
  });

  it('toggles the side panel at 1096 for customers and 1670 for staff', () => {
    expect(sidePanelBreakpoint('USER')).toBe(1096);
    expect(sidePanelBreakpoint('ADMIN')).toBe(1670);
    expect(sidePanelBreakpoint('AUTHOR')).toBe(1670);
  });
});
