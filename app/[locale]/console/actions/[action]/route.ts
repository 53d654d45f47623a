import { consoleActions } from "@/lib/console-web/console-actions";
import { consoleActionRoute } from "@/lib/console-web/console-form-route";

// POST /{locale}/console/actions/{action}: every console form (lib/console-web/console-actions.ts).
export const POST = consoleActionRoute(consoleActions);
