import type { z } from "zod";
import { walletDeclaration } from "../wallet/declaration/wallet-declaration";
import { cardDeclaration } from "../card/declaration/card-declaration";
import { satimDeclaration } from "../satim/declaration/satim-declaration";
import { clictopayDeclaration } from "../clictopay/declaration/clictopay-declaration";
import { cmiDeclaration } from "../cmi/declaration/cmi-declaration";
import { chargilyDeclaration } from "../chargily/declaration/chargily-declaration";

export type Archetype = "IN_SDK" | "REDIRECT";

/**
 * What the gateway knows of a payment method without loading its module: each method's folder
 * declares it (lib/payment-methods/<method>/declaration/), importing nothing but zod and the
 * setting shapes, so the configuration, the codes, the database schema and the proxy's CSP
 * read it without reaching payment code. The method's module (the registry's table) is the rest.
 */
export interface MethodDeclaration {
  /** The code a proceed names (interface "Payment intents" 2). */
  code: string;
  /** provider_operations.provider of its calls. */
  provider: string;
  /**
   * Its catalog row's defaults (onboarding seeds them): the countries whose onboarding enables it (all when
   * absent), and whether only the sandbox does (contract 15).
   */
  catalog: {
    name: string;
    /** Per locale (lib/payment-methods/codes/catalog-defaults.ts requires every one). */
    displayNames: Readonly<Record<string, string>>;
    imagePath: string;
    archetype: Archetype;
    position: number;
    countries?: readonly string[];
    sandboxOnly?: boolean;
  };
  /**
   * Its configuration variables, which lib/config.ts composes with the gateway's own (docs/configuration.md
   * lists them).
   */
  settings: Readonly<Record<string, z.ZodType>>;
  /**
   * The origins of its payment page for a configuration: the page before the provider's must
   * allow them in its CSP form-action (Pay's 303 goes there, or CMI's form posts there). Empty
   * when the sandbox's in-gateway simulator serves it ('self'). Absent: the page is the gateway's own.
   */
  pageOrigins?: (config: never) => readonly string[];
  /**
   * Its words, per locale (its declaration/messages.<locale>.json), under the pages' namespaces
   * (`redirect`, `checkout.methods`, `consolePayments.method`, `console.settings.methods.fields`):
   * lib/i18n/catalogs.ts adds them to the locale's catalogue, refusing any word given twice.
   */
  messages?: Readonly<Record<string, object>>;
}

/**
 * The one list of the methods' declarations; the registry's module table (payment-method-registry.ts) must
 * have a module for each code.
 */
export const METHOD_DECLARATIONS = [
  walletDeclaration,
  cardDeclaration,
  satimDeclaration,
  clictopayDeclaration,
  cmiDeclaration,
  chargilyDeclaration,
] as const satisfies readonly MethodDeclaration[];

type Declared = (typeof METHOD_DECLARATIONS)[number];
export type PaymentMethodCode = Declared["code"];
export type ProviderName = Declared["provider"];
export type UnionToIntersection<Union> = (Union extends unknown ? (value: Union) => void : never) extends (
  value: infer Both,
) => void
  ? Both
  : never;
/** Every method's variables together: the configuration's part the methods declare. */
export type MethodSettings = UnionToIntersection<Declared["settings"]>;
/** What the declared pageOrigins read of the configuration. */
export type PageOriginsConfig = UnionToIntersection<
  Parameters<Extract<Declared, { pageOrigins: unknown }>["pageOrigins"]>[0]
>;

export const PAYMENT_METHOD_CODES: readonly PaymentMethodCode[] = METHOD_DECLARATIONS.map((method) => method.code);
/** provider_operations.provider's values: a text column, so a new provider needs no migration. */
export const PROVIDER_NAMES: readonly ProviderName[] = METHOD_DECLARATIONS.map((method) => method.provider);
export const METHOD_SETTINGS = Object.assign(
  {},
  ...METHOD_DECLARATIONS.map((method) => method.settings),
) as MethodSettings;

/**
 * Where the redirect providers' payment pages are for this configuration: the one source of the redirect
 * page's CSP form-action.
 */
export function providerPageOrigins(config: PageOriginsConfig): string[] {
  const origins = METHOD_DECLARATIONS.flatMap((method) => ("pageOrigins" in method ? method.pageOrigins(config) : []));
  return [...new Set(origins)];
}
