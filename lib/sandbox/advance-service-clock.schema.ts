import { z } from "zod";

// Up to a year at a time: enough for the 7-day reservation rule, far from integer overflow.
export const advanceClockBody = z.object({
  advanceSeconds: z.number().int("must be a whole number of seconds").min(0).max(366 * 24 * 60 * 60),
});

export const serviceClockView = z.object({
  clockOffsetSeconds: z.number().int().meta({ description: "How far the service's sandbox clock runs ahead of real time." }),
  now: z.iso.datetime().meta({ description: "The service's clock now." }),
});

export type AdvanceClockBody = z.output<typeof advanceClockBody>;
