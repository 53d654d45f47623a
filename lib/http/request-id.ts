import { randomUUID } from "node:crypto";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a caller's id when it is a sane token, so both sides can grep one value. */
export function requestIdFor(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
