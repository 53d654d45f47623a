import type { BackgroundJob } from "./background-jobs";

/** Every periodic job the gateway runs; the server and `npm run worker` start these. */
export const gatewayJobs: BackgroundJob[] = [];
