import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { retryDelaySeconds } from "@/lib/notifications/retry-schedule";

describe("webhook retry schedule", () => {
  it("retries with growing delays for at least 24 hours by default", () => {
    const schedule = parseConfig({}).WEBHOOK_RETRY_SCHEDULE;
    const total = schedule.reduce((sum, seconds) => sum + seconds, 0);
    expect(total).toBeGreaterThanOrEqual(24 * 3600);
    schedule.slice(1).forEach((seconds, index) => expect(seconds).toBeGreaterThanOrEqual(schedule[index]!));
  });

  it("abandons after the last delay of the schedule", () => {
    const schedule = [5, 60];
    expect(retryDelaySeconds({ attemptNumber: 1, schedule, random: () => 0 })).toBe(5);
    expect(retryDelaySeconds({ attemptNumber: 2, schedule, random: () => 0 })).toBe(60);
    expect(retryDelaySeconds({ attemptNumber: 3, schedule, random: () => 0 })).toBeNull();
  });

  it("spreads retries out by lengthening delays only (never below the schedule)", () => {
    const delays = [0, 0.5, 0.999].map((r) =>
      retryDelaySeconds({ attemptNumber: 1, schedule: [100], random: () => r })!,
    );
    expect(Math.min(...delays)).toBe(100);
    expect(Math.max(...delays)).toBeLessThanOrEqual(110);
  });

  it("refuses in production a schedule shorter than 24 hours", () => {
    const production = {
      APP_ENV: "production",
      DATABASE_URL: "postgres://localhost/x",
      GATEWAY_SECRET: "a".repeat(44),
      PUBLIC_BASE_URL: "https://pay.example",
      WALLET_PROVIDER_URL: "https://wallet.example",
      WALLET_PROVIDER_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    };
    expect(() => parseConfig({ ...production, WEBHOOK_RETRY_SCHEDULE: "1,2,3" })).toThrow(/24 hours/);
    expect(parseConfig(production).WEBHOOK_RETRY_SCHEDULE.length).toBeGreaterThan(0);
  });
});
