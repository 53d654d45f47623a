import { z } from "zod";

// A missing or malformed token is answered like a wrong one (404), telling nothing more.
export const qrStatusQuery = z.object({ token: z.string().max(256).catch("") });
