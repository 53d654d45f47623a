/** scripts/build-api-lane.mjs, for the tests that read its route table. */
export declare const API_LANE_BUNDLE: string;
export declare function laneRouteFiles(): { pattern: string; file: string }[];
export declare function buildApiLane(outfile?: string): Promise<void>;
