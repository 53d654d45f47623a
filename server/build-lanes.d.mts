/** server/build-lanes.mjs, for the tests that read its route table and the tests' server, which makes the lanes. */
export declare const LANES_BUNDLE: string;
export declare function apiRouteFiles(): {
  operations: { pattern: string; file: string }[];
  others: { pattern: string; file: string }[];
};
export declare function laneRouteFiles(): { pattern: string; file: string }[];
export declare function consoleNextRoutes(): string[];
export declare function buildLanes(outfile?: string): Promise<void>;
export declare function consoleStylesheet(): Promise<{ href: string; css: string }>;
