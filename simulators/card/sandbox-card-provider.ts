import type { CardProvider } from "../../lib/providers/card/port";
import { sandboxChallengeOperations } from "./sandbox-card-challenge";
import { sandboxConfirmOperations } from "./sandbox-card-confirm";
import { sandboxEventOperations } from "./sandbox-card-events";
import { sandboxIntentOperations } from "./sandbox-card-intents";

/**
 * The sandbox provider as a whole: the port the gateway's domain uses, plus the browser API
 * (confirm, 3DS challenge) a real provider would host on its own servers. It only exists in
 * the sandbox; production plugs a real provider into the port.
 */
export const sandboxCardProvider = {
  ...sandboxIntentOperations,
  ...sandboxConfirmOperations,
  ...sandboxEventOperations,
  ...sandboxChallengeOperations,
} satisfies CardProvider & Record<string, unknown>;

export type SandboxCardProvider = typeof sandboxCardProvider;
