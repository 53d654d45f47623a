import { z } from "zod";

/**
 * Body of POST /api/v1/sandbox/clock: `{ "advanceSeconds": n }` moves the service's clock
 * forward; `{ "reset": true }` brings it back to real time (as DELETE does).
 */
export const advanceClockBody = z
  .object({
    // Up to a year at a time: enough for the 7-day reservation rule, far from integer overflow.
    advanceSeconds: z
      .number()
      .int("must be a whole number of seconds")
      .min(0)
      .max(366 * 24 * 60 * 60)
      .optional(),
    reset: z.literal(true, { error: "must be true to reset the clock" }).optional(),
  })
  .refine((body) => (body.advanceSeconds === undefined) !== (body.reset === undefined), {
    message: 'give either "advanceSeconds" (to move the clock forward) or "reset": true (to bring it back)',
    path: ["advanceSeconds"],
  });

/** What both clock calls answer: the offset from real time and the service's now. */
export const serviceClockView = z.object({
  clockOffsetSeconds: z
    .number()
    .int()
    .meta({ description: "How far the service's sandbox clock runs ahead of real time." }),
  now: z.iso.datetime().meta({ description: "The service's clock now." }),
});

export type AdvanceClockBody = z.output<typeof advanceClockBody>;
