/** server/stamp-peer.mjs, for the tests' in-process server. */
import type { IncomingMessage } from "node:http";
export declare const PEER_HEADER: string;
export declare function markPeerStamping(): void;
export declare function stampPeer(request: IncomingMessage): void;
