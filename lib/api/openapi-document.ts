import committed from "../../openapi.json";
import { getConfig } from "../config";

let served: string | undefined;

/**
 * Contract section 12: the committed document (a test holds it equal to what the operations
 * generate), with this gateway's own base address as its server. Built once per process.
 */
export function servedOpenApiDocument(): string {
  served ??= JSON.stringify({
    ...committed,
    servers: [
      {
        url: getConfig().publicBaseUrl,
        description: getConfig().isSandbox ? "This gateway (sandbox)." : "This gateway.",
      },
    ],
  });
  return served;
}
