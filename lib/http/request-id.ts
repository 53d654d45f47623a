import { randomUUID } from "node:crypto";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a caller's id when it is a sane token, so both sides can grep one value. */
export function requestIdFor(request: Request): string {
  return requestIdOf(request.headers.get("x-request-id"));
}

/** The same from the header's value (the console lane reads Node's parsed headers). */
export function requestIdOf(incoming: string | null | undefined): string {
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
