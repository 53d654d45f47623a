/** server/door.mjs, for the tests' in-process server (tests/support/gateway-server.ts). */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

/** A lane: answers a request it takes and returns true, or returns false at once, having touched nothing. */
export type Lane = (request: IncomingMessage, response: ServerResponse) => boolean;
export interface Lanes {
  serveApi: Lane;
  serveConsole: Lane;
  serveHosted: Lane;
}
export declare function createDoor(options: {
  lanes: () => Lanes;
  handleNext: (request: IncomingMessage, response: ServerResponse) => unknown;
}): RequestListener;
export declare function loadLanes(url: string): Promise<Lanes>;
