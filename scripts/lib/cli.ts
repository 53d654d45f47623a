import { ZodError } from "zod";
import "../../lib/validation/zod-messages";

/** A mistake in how a command was called: the message, then the command's usage. */
export class UsageError extends Error {}

/** `--help`: print the usage on stdout and exit 0. */
export class HelpRequested extends Error {
  constructor(readonly text: string) {
    super(text);
  }
}

/**
 * Joins `--name value` into `--name=value` for options that always take a value, so a value
 * that starts with a dash (a base64url client secret may) is not taken for an option.
 */
export function joinOptionValues(args: readonly string[], valued: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    const next = args[index + 1];
    if (valued.includes(arg.replace(/^--/, "")) && arg.startsWith("--") && next !== undefined) {
      joined.push(`${arg}=${next}`);
      index += 1;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

const isParseArgsError = (error: unknown) => String((error as { code?: unknown })?.code).startsWith("ERR_PARSE_ARGS");

/**
 * What every CLI of the gateway prints when it fails: one clear sentence (and the usage when
 * the call was wrong), never a stack trace. `flagOf` names a flag for a schema field.
 */
export function describeCliError(
  error: unknown,
  options: { usage?: string; flagOf?: Record<string, string> } = {},
): string {
  const usage = options.usage ? `\n${options.usage}` : "";
  if (error instanceof ZodError) {
    const lines = error.issues.map((issue) => {
      const field = String(issue.path[0] ?? "");
      return `${options.flagOf?.[field] ?? (issue.path.join(".") || "input")}: ${issue.message}`;
    });
    return `${lines.join("\n")}${usage}`;
  }
  if (error instanceof UsageError || isParseArgsError(error)) return `${(error as Error).message}${usage}`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const cause = (error as { cause?: NodeJS.ErrnoException } | undefined)?.cause;
  const network = code ?? cause?.code;
  if (network === "ECONNREFUSED" || network === "ENOTFOUND" || network === "EAI_AGAIN" || network === "ETIMEDOUT") {
    const where = process.env.DATABASE_URL ? "the database at DATABASE_URL" : "the server";
    return `Could not reach ${where} (${network}). Is it running and is the address right?`;
  }
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** Runs a CLI's main: on failure, the clear message on stderr and exit code 1. */
export function runCli(
  main: () => Promise<void>,
  options: { usage?: string; flagOf?: Record<string, string> } = {},
): void {
  main().catch((error: unknown) => {
    if (error instanceof HelpRequested) {
      process.stdout.write(`${error.text}\n`);
      process.exit(0);
    }
    process.stderr.write(`${describeCliError(error, options)}\n`);
    process.exit(1);
  });
}
