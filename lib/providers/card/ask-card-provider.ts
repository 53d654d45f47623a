import { ProviderRefusedError } from "../../provider-operations";
import { CardProviderError } from "./card-provider-error";

/**
 * A card provider call as a provider operation sees it: a refusal (an HTTP 4xx with an error
 * code, except 409) is definitive and becomes ProviderRefusedError; anything else may have
 * applied and stays as thrown.
 */
export async function askCardProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (
      error instanceof CardProviderError &&
      error.httpStatus >= 400 &&
      error.httpStatus < 500 &&
      error.httpStatus !== 409
    ) {
      throw new ProviderRefusedError(error.code, error.message);
    }
    throw error;
  }
}
