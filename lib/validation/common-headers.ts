import { z } from "zod";

// Request parts several endpoints share (interface "Common headers"), defined once so every
// endpoint refuses them with the same words.

export const alpha3Schema = z.string().regex(/^[A-Z]{3}$/, "must be an ISO 3166-1 alpha-3 code such as DZA");

export const PLATFORMS = ["API", "WEB", "ANDROID", "IOS"] as const;

/** x-platform: required on proceed, check, the user-context methods list and saved cards. */
export const platformHeader = z.enum(PLATFORMS, { error: "must be one of API, WEB, ANDROID, IOS" });
