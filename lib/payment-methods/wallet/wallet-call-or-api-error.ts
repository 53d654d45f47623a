import { ApiError } from "../../errors/api-error";
import { providerUnavailable } from "../../provider-operations";
import { WalletProtocolError, WalletUnavailableError } from "../../providers/wallet/http-wallet-client";

/**
 * A wallet that does not answer is a 503 (contract 12): these calls move no money and nothing
 * was recorded, so a plain retry is safe. A named refusal the flow does not expect is the
 * wallet refusing this customer.
 */
export async function walletCallOrApiError<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof WalletUnavailableError) throw providerUnavailable();
    if (error instanceof WalletProtocolError) {
      throw new ApiError("invalid_state", `The wallet refused the payment (${error.errorName}).`);
    }
    throw error;
  }
}
