/** Contract 13: a session ends after 12 hours without use and after 7 days in any case. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** The password step's session waits this long for the code step. */
export const CODE_STEP_MS = 10 * 60 * 1000;

export function sessionIsLive(session: { stage: "code" | "active"; createdAt: Date; lastUsedAt: Date; endedAt: Date | null }, now: Date): boolean {
  if (session.endedAt) return false;
  const age = now.getTime() - session.createdAt.getTime();
  if (session.stage === "code") return age < CODE_STEP_MS;
  return age < SESSION_ABSOLUTE_MS && now.getTime() - session.lastUsedAt.getTime() < SESSION_IDLE_MS;
}
