import { accountActions } from "./account-actions";
import { developerActions } from "./developer-actions";
import { paymentLinkActions } from "./payment-link-actions";
import { paymentActions } from "./payment-actions";
import { settingsActions } from "./settings-actions";
import { signInActions } from "./sign-in-actions";
import { teamActions } from "./team-actions";
import type { ConsoleAction } from "../console-form-route";

/** Every console form's action, by the name in its address `/{locale}/console/actions/{name}`. */
export const consoleActions: Readonly<Record<string, ConsoleAction>> = {
  ...signInActions,
  ...accountActions,
  ...teamActions,
  ...developerActions,
  ...settingsActions,
  ...paymentLinkActions,
  ...paymentActions,
};
