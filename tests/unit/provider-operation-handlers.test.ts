import { describe, expect, it } from "vitest";
import { PROVIDER_OPERATION_HANDLERS, handlerOf } from "@/lib/provider-operation-handlers/provider-operation-handlers";
import { PROVIDER_OPERATION_KINDS, type ProviderName } from "@/lib/provider-operations";
import { providerName } from "@/lib/db/schema";

// Every (provider, kind) an operation can be recorded with: beginProviderOperation takes a kind
// of PROVIDER_OPERATION_KINDS only, and provider_operations.provider is the provider_name enum.
const RECORDABLE = providerName.enumValues.flatMap((provider: ProviderName) => PROVIDER_OPERATION_KINDS[provider].map((kind) => ({ provider, kind })));

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
    expect(() => handlerOf({ provider: "wallet", kind: "cancel" })).toThrow("no provider operation handler for wallet:cancel");
  });
});
