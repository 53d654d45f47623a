import { describe, expect, it } from "vitest";
import { PROVIDER_OPERATION_HANDLERS, handlerOf } from "@/lib/provider-operation-registry/provider-operation-handlers";
import { PROVIDER_OPERATION_KINDS, type ProviderName } from "@/lib/provider-operations";
import { PROVIDER_NAMES } from "@/lib/payment-methods/declarations/method-declarations";
import { PAYMENT_METHODS } from "@/lib/payment-methods/registry/payment-method-registry";
import { redirectOperationKinds } from "@/lib/payment-methods/redirect/redirect-operations";

// The kinds each provider_name can be recorded with: the card provider's and the wallet's from
// PROVIDER_OPERATION_KINDS, a redirect provider's from what it can do (its module's RedirectProvider).
const redirectProviders = Object.values(PAYMENT_METHODS).flatMap((method) =>
  method.redirect ? [method.redirect] : [],
);
const kindsOf = (provider: ProviderName): readonly string[] => {
  const redirect = redirectProviders.filter((candidate) => candidate.provider === provider);
  const listed = (PROVIDER_OPERATION_KINDS as Partial<Record<ProviderName, readonly string[]>>)[provider];
  // Exactly one source says what a provider is asked for.
  expect(redirect.length + (listed ? 1 : 0), `${provider}: one source of its operation kinds`).toBe(1);
  return listed ?? redirectOperationKinds(redirect[0]!);
};

// Every (provider, kind) an operation can be recorded with: provider_operations.provider is one of the declared
// PROVIDER_NAMES.
const RECORDABLE = PROVIDER_NAMES.flatMap((provider: ProviderName) =>
  kindsOf(provider).map((kind) => ({ provider, kind })),
);

describe("the provider operation handlers", () => {
  it.each(RECORDABLE)("has a handler for $provider:$kind, which reconciliation finds", (operation) => {
    const handler = handlerOf(operation);
    expect([handler.provider, handler.kind]).toEqual([operation.provider, operation.kind]);
  });

  it("lists each handler once, and none for an operation that cannot be recorded", () => {
    const listed = PROVIDER_OPERATION_HANDLERS.map((handler) => `${handler.provider}:${handler.kind}`);
    expect([...listed].sort()).toEqual(RECORDABLE.map(({ provider, kind }) => `${provider}:${kind}`).sort());
  });

  it("names what has no handler", () => {
    expect(() => handlerOf({ provider: "wallet", kind: "cancel" })).toThrow(
      "no provider operation handler for wallet:cancel",
    );
  });
});
