/** The UTC moments a range of days covers: from the first day's start to the last's end. */
export function dayRange(from?: string, to?: string): { start?: Date; end?: Date } {
  const day = 86_400_000;
  return {
    ...(from ? { start: new Date(`${from}T00:00:00.000Z`) } : {}),
    ...(to ? { end: new Date(Date.parse(`${to}T00:00:00.000Z`) + day) } : {}),
  };
}
