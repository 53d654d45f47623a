import { z } from "zod";

/**
 * Our wording for every zod rule a schema does not word itself (a schema's own message always
 * wins), so no response ever carries zod's default text such as "Invalid input: expected
 * string, received undefined". Installed once, globally, by importing this module.
 */
type RawIssue = Parameters<NonNullable<z.core.$ZodConfig["customError"]>>[0];

const FORMAT_NAMES: Record<string, string> = {
  email: "an email address",
  url: "a URL",
  uuid: "a UUID",
  guid: "a UUID",
  datetime: "an ISO 8601 date and time",
  date: "an ISO 8601 date",
  e164: "a phone number in E.164 format (+ and 8 to 15 digits)",
};

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  bigint: "a whole number",
  date: "a date",
};

export function ourWording(issue: RawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      if (issue.input === null) return "must not be null";
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case "too_small":
      return sizeMessage("at least", issue.origin, issue.minimum, issue.inclusive, "greater than");
    case "too_big":
      return sizeMessage("at most", issue.origin, issue.maximum, issue.inclusive, "less than");
    case "invalid_format":
      if (issue.format === "regex") return "is not in the expected format";
      if (issue.format === "starts_with") return `must start with ${JSON.stringify(issue.prefix)}`;
      return `must be ${FORMAT_NAMES[issue.format] ?? `in ${issue.format} format`}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((value) => String(value)).join(", ")}`;
    case "unrecognized_keys":
      return `has unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "invalid_union":
      return "does not match any accepted shape";
    case "invalid_key":
      return "has an invalid key";
    case "invalid_element":
      return "has an invalid element";
    default:
      return "is invalid";
  }
}

function sizeMessage(
  bound: string,
  origin: string,
  limit: number | bigint | Date,
  inclusive: boolean | undefined,
  strict: string,
): string {
  const n = Number(limit);
  switch (origin) {
    case "string":
      if (bound === "at least" && n === 1) return "must not be empty";
      return `must be ${bound} ${n} character${n === 1 ? "" : "s"} long`;
    case "array":
    case "set":
      return `must have ${bound} ${n} item${n === 1 ? "" : "s"}`;
    default:
      return `must be ${inclusive === false ? strict : bound} ${n}`;
  }
}

z.config({ customError: (issue) => ourWording(issue) });
