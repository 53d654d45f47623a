import pino from "pino";

// Credentials never reach a log line, whatever object carries them.
const REDACTED_FIELDS = [
  "authorization",
  "clientSecret",
  "client_secret",
  "accessToken",
  "refreshToken",
  "token",
  "otp",
  "code",
  "cardNumber",
  "number",
  "cvc",
  "webhookSecret",
  "publishableKey",
  "password",
  "secret",
];

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: undefined,
  redact: {
    paths: [
      ...REDACTED_FIELDS,
      ...REDACTED_FIELDS.map((field) => `*.${field}`),
      'headers["authorization"]',
      'headers["x-client-secret"]',
      'headers["x-client-token"]',
    ],
    censor: "[redacted]",
  },
});
