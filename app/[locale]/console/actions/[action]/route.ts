import { consoleActions } from "@/lib/console/web/actions/console-actions";
import { consoleActionRoute } from "@/lib/console/web/console-form-route";

// POST /{locale}/console/actions/{action}: every console form (lib/console/web/actions/console-actions.ts).
export const POST = consoleActionRoute(consoleActions);
