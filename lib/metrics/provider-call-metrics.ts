import { startSpan } from "../tracing/spans";
import { metrics } from "./gateway-metrics";

export type ProviderCallOutcome = "ok" | "refused" | "unavailable" | "timeout";

/**
 * One money-moving provider call as lib/provider-operations makes it (every provider, present and
 * future, goes through that boundary): counted by provider, operation and outcome, timed, and a
 * span while traces are on. Labels are the operation's provider and kind, never its id or amount.
 */
export function observeProviderCall(provider: string, operation: string): { end(outcome: ProviderCallOutcome): void } {
  const started = performance.now();
  const span = startSpan(`provider ${provider} ${operation}`, {
    "gateway.provider": provider,
    "gateway.provider.operation": operation,
  });
  return {
    end(outcome) {
      metrics.providerCalls.inc({ provider, operation, outcome });
      metrics.providerCallDuration.observe({ provider, operation }, (performance.now() - started) / 1000);
      span?.end({ "gateway.provider.outcome": outcome }, outcome !== "ok" && outcome !== "refused");
    },
  };
}
