import { accountActions } from "./actions/account-actions";
import { developerActions } from "./actions/developer-actions";
import { paymentLinkActions } from "./actions/payment-link-actions";
import { paymentActions } from "./actions/payment-actions";
import { settingsActions } from "./actions/settings-actions";
import { signInActions } from "./actions/sign-in-actions";
import { teamActions } from "./actions/team-actions";
import type { ConsoleAction } from "./console-form-route";

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
