import type { ApiError } from "@/lib/errors/api-error";

/** The ApiError a domain call threw; fails the test when it resolved instead. */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("expected a rejection");
}
