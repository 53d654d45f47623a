/**
 * The seam for provider faults in `npm run chaos`. The sandbox wallet and card provider of this
 * build have no fault hook that a separate process can switch on (issues 11 and 12 add
 * provider operations with reconciliation and the simulators' faults). When they land, set
 * their switch here: the environment below reaches every gateway process and the worker, and
 * the audit's provider_operations_settled invariant then checks that every fault was settled.
 */
export const PROVIDER_FAULT_ENV: Record<string, string> = {
  // e.g. SANDBOX_PROVIDER_FAULTS: "card:0.1,wallet:0.1" once the simulators read it.
};

export function providerFaultEnv(): Record<string, string> {
  return PROVIDER_FAULT_ENV;
}

export function describeProviderFaults(): string {
  const entries = Object.entries(PROVIDER_FAULT_ENV);
  return entries.length === 0
    ? "none (no simulator fault hook in this build; seam in scripts/chaos/provider-faults.ts)"
    : entries.map(([name, value]) => `${name}=${value}`).join(", ");
}
