// Developer kit: `npm run gateway -- listen --forward-to <url>` and `npm run gateway -- trigger <event-type>`.
import { parseArgs } from "node:util";
import { gatewayApi, GatewayCallError } from "../lib/devkit/gateway-api";
import { EventListener } from "../lib/devkit/listen-events";
import { isTriggerableEvent, triggerEvent, TRIGGERABLE_EVENTS } from "../lib/devkit/trigger-event";
import { HelpRequested, joinOptionValues, runCli, UsageError } from "./lib/cli";

const CREDENTIAL_FLAGS = `[--base-url <url>] [--client-id <id>] [--client-secret <secret>]
      (or GATEWAY_BASE_URL, default http://localhost:3000; GATEWAY_CLIENT_ID; GATEWAY_CLIENT_SECRET)`;
const COMMANDS = {
  listen: `npm run gateway -- listen --forward-to <url> [--webhook-secret <whsec_...>] [--interval <seconds>]
      ${CREDENTIAL_FLAGS}
    Polls the service's events (GET /api/v1/events) and forwards each new one to <url>, signed
    like a real delivery (Standard Webhooks) with the service's webhook secret: --webhook-secret
    or GATEWAY_WEBHOOK_SECRET (the gateway never sends it over the API; it is printed at
    onboarding and by npm run merchant -- update --rotate-webhook-secret).`,
  trigger: `npm run gateway -- trigger <event-type> [--service <code>] [--country <alpha-3>] [--currency <code>]
      ${CREDENTIAL_FLAGS}
    Drives a sandbox payment to the event: ${TRIGGERABLE_EVENTS.join(", ")}.`,
} as const;
const USAGE = `Usage:\n${Object.values(COMMANDS)
  .map((text) => `  ${text}`)
  .join("\n")}`;

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help")
    throw new HelpRequested(USAGE);
  if (command !== "listen" && command !== "trigger") throw new UsageError(`Unknown command ${command}`);
  const { values, positionals } = parseArgs({
    args: joinOptionValues(rest, ["base-url", "client-id", "client-secret", "webhook-secret", "forward-to"]),
    allowPositionals: command === "trigger",
    options: {
      "base-url": { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      "forward-to": { type: "string" },
      "webhook-secret": { type: "string" },
      interval: { type: "string" },
      service: { type: "string" },
      country: { type: "string" },
      currency: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) throw new HelpRequested(`Usage:\n  ${COMMANDS[command]}`);
  const baseUrl = values["base-url"] ?? process.env.GATEWAY_BASE_URL ?? "http://localhost:3000";
  const clientId = values["client-id"] ?? process.env.GATEWAY_CLIENT_ID;
  const clientSecret = values["client-secret"] ?? process.env.GATEWAY_CLIENT_SECRET;
  if (!URL.canParse(baseUrl)) throw new UsageError(`--base-url: must be a URL such as http://localhost:3000`);
  if (!clientId || !clientSecret)
    throw new UsageError(
      "Give the merchant's client credentials: --client-id and --client-secret " +
        "(or GATEWAY_CLIENT_ID and GATEWAY_CLIENT_SECRET)",
    );
  const api = gatewayApi({ baseUrl, clientId, clientSecret });

  if (command === "trigger") {
    const [event] = positionals;
    if (!event || !isTriggerableEvent(event)) {
      throw new UsageError(
        `${event ? `Unknown event type ${event}` : "Give an event type"}; one of ${TRIGGERABLE_EVENTS.join(", ")}`,
      );
    }
    // The client id is TENANT.SERVICE.ULID: its middle part is the service code x-service names.
    const service = values.service ?? clientId.split(".")[1] ?? "";
    const { paymentId, statusCode } = await triggerEvent(api, {
      event,
      service,
      country: values.country,
      currency: values.currency,
    });
    process.stdout.write(
      `Triggered ${event}: payment ${paymentId} (statusCode ${statusCode}). Its event is in GET /api/v1/events.\n`,
    );
    return;
  }

  const forwardTo = values["forward-to"];
  const webhookSecret = values["webhook-secret"] ?? process.env.GATEWAY_WEBHOOK_SECRET;
  if (!forwardTo || !URL.canParse(forwardTo))
    throw new UsageError("--forward-to: give the local URL to forward events to, e.g. http://localhost:4242/webhooks");
  if (!webhookSecret?.startsWith("whsec_")) {
    throw new UsageError("Give the service's webhook secret (whsec_...): --webhook-secret or GATEWAY_WEBHOOK_SECRET");
  }
  const intervalSeconds = Number(values.interval ?? "2");
  if (!(intervalSeconds >= 0.2 && intervalSeconds <= 60))
    throw new UsageError("--interval: seconds between polls, from 0.2 to 60");
  const listener = new EventListener({
    api,
    forwardTo,
    webhookSecret,
    onForward: ({ event, status, error }) =>
      process.stdout.write(
        `${new Date().toISOString()}  ${event.type}  ${event.id}  -> ${status ?? `no answer (${error})`}\n`,
      ),
  });
  await listener.poll(); // the starting point: events from now on
  process.stdout.write(`Ready. Forwarding ${baseUrl} events to ${forwardTo} (Ctrl-C to stop).\n`);
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => (stopping = true));
  while (!stopping) {
    await new Promise((resolve) => setTimeout(resolve, intervalSeconds * 1000));
    try {
      await listener.poll();
    } catch (error) {
      // A gateway restart or a network blip: say so and keep polling.
      process.stderr.write(`${error instanceof GatewayCallError ? error.message : String(error)}\n`);
      if (error instanceof GatewayCallError && error.status === 401) throw error;
    }
  }
}

runCli(() => main(process.argv.slice(2)), { usage: USAGE });
