/** Contract 13: a session ends after 12 hours without use and after 7 days in any case. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** The password step's session waits this long for the code step. */
export const CODE_STEP_MS = 10 * 60 * 1000;
/**
 * A use is noted (the idle clock restarts) only when the last note is at least this old: a page
 * then reads its session without writing it, and the idle clock is exact to a minute (a session
 * used all along ends at most a minute before 12 hours after its last use, never after).
 */
export const SESSION_USE_NOTE_MS = 60 * 1000;

/** The bounds an active session lives within at `now`: created after one, last noted after the other. */
export function activeSessionBounds(now: Date): { createdAfter: Date; usedAfter: Date } {
  return {
    createdAfter: new Date(now.getTime() - SESSION_ABSOLUTE_MS),
    usedAfter: new Date(now.getTime() - SESSION_IDLE_MS),
  };
}

export function sessionIsLive(
  session: { stage: "code" | "active"; createdAt: Date; lastUsedAt: Date; ended: boolean },
  now: Date,
): boolean {
  if (session.ended) return false;
  if (session.stage === "code") return now.getTime() - session.createdAt.getTime() < CODE_STEP_MS;
  const bounds = activeSessionBounds(now);
  return session.createdAt > bounds.createdAfter && session.lastUsedAt > bounds.usedAfter;
}

/** A live active session's use is noted when its last note is this old or older. */
export function useNoteDueBefore(now: Date): Date {
  return new Date(now.getTime() - SESSION_USE_NOTE_MS);
}
