/** The clock port: every time rule reads a Clock, never Date.now() directly. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The sandbox moves one service's time forward; production services keep offset 0. */
export function serviceClock(service: { clockOffsetSeconds: number }, base: Clock = systemClock): Clock {
  const offsetMs = service.clockOffsetSeconds * 1000;
  if (offsetMs === 0) return base;
  return { now: () => new Date(base.now().getTime() + offsetMs) };
}
