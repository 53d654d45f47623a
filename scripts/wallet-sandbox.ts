// `npm run wallet-sandbox`: the sandbox wallet as a service of its own, speaking the
// wallet-service protocol (docs/wallet-protocol.openapi.yaml). Point a gateway at it with
// WALLET_PROVIDER_URL=http://<host>:<port> and the same WALLET_PROVIDER_SECRET.
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import { getConfig } from "../lib/config";
import { openSimulatorDatabase } from "../lib/db/simulator-database";
import { serveFetchHandler } from "../lib/http/serve-fetch-on-node";
import { walletProtocolHandler } from "../simulators/wallet/serve-wallet-protocol";

async function main() {
  const config = getConfig();
  const port = config.WALLET_SANDBOX_PORT;
  const host = config.WALLET_SANDBOX_HOST;
  const publicUrl = (config.WALLET_SANDBOX_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, "");
  let secret = config.WALLET_PROVIDER_SECRET;
  if (!secret) {
    secret = `whsec_${randomBytes(32).toString("base64")}`;
    console.log(`WALLET_PROVIDER_SECRET was not set; this run signs with ${secret} (give the gateway the same)`);
  }
  // A database of its own, refused when it is a gateway's: the wallet shares nothing with the gateway but the protocol.
  const database = await openSimulatorDatabase({
    databaseUrl: config.WALLET_SANDBOX_DATABASE_URL,
    pgliteDir: config.WALLET_SANDBOX_PGLITE_DIR,
    settings: "WALLET_SANDBOX_DATABASE_URL (or WALLET_SANDBOX_PGLITE_DIR)",
    simulator: "sandbox wallet",
  });
  const handler = walletProtocolHandler({
    db: database.db,
    secret,
    basePath: "",
    // No wallet app here: answer a QR request with POST /v1/sandbox/qr-requests/{id}/answer.
    qrContent: ({ qrRequestId }) => `${publicUrl}/v1/qr-requests/${qrRequestId}`,
  });
  const server = createServer(serveFetchHandler(handler, () => publicUrl));
  server.listen(port, host, () => console.log(`Sandbox wallet (${database.driver}) on http://${host}:${port}`));
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => server.close(() => void database.close().then(() => process.exit(0))));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
