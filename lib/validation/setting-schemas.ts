import { z } from "zod";

/*
 * The shapes of configuration variables that lib/config.ts and the payment methods' declarations
 * (lib/payment-methods/<method>/declaration) both use: a method declares its own variables with
 * them, and the configuration composes every declaration's.
 */

export const portSetting = z.coerce.number().int().min(1).max(65535);
export const httpUrlSetting = () => z.url({ protocol: /^https?$/ });
export const postgresUrlSetting = () => z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL");

const simulatorSettings = (port: number, pgliteDir: string) => ({
  PORT: portSetting.default(port),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: postgresUrlSetting().optional(),
  PGLITE_DIR: z.string().min(1).default(pgliteDir),
});
type SimulatorSettings<Prefix extends string> = {
  [Key in keyof ReturnType<typeof simulatorSettings> as `${Prefix}_SIMULATOR_${Key}`]: ReturnType<
    typeof simulatorSettings
  >[Key];
};

/**
 * `npm run simulator -- <name>`'s variables (<PREFIX>_SIMULATOR_PORT, _HOST, _DATABASE_URL, _PGLITE_DIR): the
 * provider's simulator as a process of its own.
 */
export function simulatorProcessSettings<Prefix extends string>(
  prefix: Prefix,
  defaults: { port: number; pgliteDir: string },
): SimulatorSettings<Prefix> {
  const settings = Object.entries(simulatorSettings(defaults.port, defaults.pgliteDir)).map(([name, schema]) => [
    `${prefix}_SIMULATOR_${name}`,
    schema,
  ]);
  return Object.fromEntries(settings) as SimulatorSettings<Prefix>;
}
