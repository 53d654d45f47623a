import { getConfig } from "../../config";
import { isInsideTransaction, ProviderCallInTransactionError } from "../../db/transaction-guard";
import { ProviderUnavailableError } from "../../provider-operations";
import { redirectSimulatorMount } from "../../providers/simulator-mount";
import type { RedirectAccount } from "../contract/redirect-provider";

/*
 * CMI on the wire (CMI runs the EST / Nestpay platform): the buyer's browser posts the signed
 * 3D Pay Hosting form to `<base>/fim/est3Dgate`; the merchant's server posts an XML CC5Request
 * to `<base>/fim/api` (Name, Password, ClientId, Type PostAuth | Void | Credit with OrderId and
 * Total, or Extra/ORDERSTATUS=QUERY for the order's status) and reads a flat CC5Response.
 * Production sends to CMI_URL (test platform: https://testpayment.cmi.co.ma; production:
 * https://payment.cmi.co.ma); a sandbox without it reaches the in-gateway CMI simulator.
 */

/** ISO 4217 numeric code of the Moroccan dirham, which CMI takes here. */
export const CMI_CURRENCY = "504";

/** Centimes as CMI's decimal amount: 12345 is "123.45", never rounded (MAD has two decimals). */
export const cmiAmount = (amountMinor: number) =>
  `${Math.floor(amountMinor / 100)}.${String(amountMinor % 100).padStart(2, "0")}`;

export type CmiAnswer = { fields: Record<string, string>; extra: Record<string, string> };

export function cmiBaseUrl(): string {
  const config = getConfig();
  if (config.CMI_URL) return config.CMI_URL.replace(/\/+$/, "");
  if (config.isSandbox) return `${config.publicBaseUrl}${redirectSimulatorMount("cmi").path}`;
  throw new ProviderUnavailableError("CMI_URL is not set");
}

/** Where the buyer's browser posts the signed form. */
export const cmiGateUrl = () => `${cmiBaseUrl()}/fim/est3Dgate`;

const xmlEscape = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const xmlUnescape = (value: string) =>
  value
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

/**
 * The CC5Request document: the account's API user, its client id, then the call's own elements (Extra's
 * children nested).
 */
export function cc5Request(
  account: RedirectAccount,
  elements: Record<string, string>,
  extra: Record<string, string> = {},
): string {
  const tags = (entries: Record<string, string>) =>
    Object.entries(entries)
      .map(([name, value]) => `<${name}>${xmlEscape(value)}</${name}>`)
      .join("");
  const extraXml = Object.keys(extra).length > 0 ? `<Extra>${tags(extra)}</Extra>` : "";
  const body = tags({
    Name: account.apiUser!,
    Password: account.apiPassword!,
    ClientId: account.clientId!,
    ...elements,
  });
  return `<?xml version="1.0" encoding="UTF-8"?><CC5Request>${body}${extraXml}</CC5Request>`;
}

/** A flat CC5Response (or CC5Request, for the simulator): its elements, and Extra's apart. */
export function parseCc5(xml: string): CmiAnswer {
  const read = (part: string) => {
    const found: Record<string, string> = {};
    for (const match of part.matchAll(/<([A-Za-z_][\w.]*)>([^<]*)<\/\1>/g))
      found[match[1]!] = xmlUnescape(match[2]!.trim());
    return found;
  };
  const extraMatch = /<Extra>([\s\S]*?)<\/Extra>/.exec(xml);
  const extra = extraMatch ? read(extraMatch[1]!) : {};
  const fields = read(extraMatch ? xml.replace(extraMatch[0], "") : xml);
  return { fields, extra };
}

/**
 * One API call; an HTTP error or an answer that is not a CC5Response leaves the outcome unknown
 * (ProviderUnavailableError).
 */
export async function callCmi(
  account: RedirectAccount,
  elements: Record<string, string>,
  extra: Record<string, string> = {},
): Promise<CmiAnswer> {
  const call = elements.Type ?? "ORDERSTATUS";
  if (isInsideTransaction()) throw new ProviderCallInTransactionError(`cmi.${call}`);
  const config = getConfig();
  const send: typeof fetch = !config.CMI_URL && config.isSandbox ? redirectSimulatorMount("cmi").fetch : fetch;
  let response: Response;
  try {
    response = await send(`${cmiBaseUrl()}/fim/api`, {
      method: "POST",
      headers: { "content-type": "application/xml; charset=utf-8", accept: "application/xml" },
      body: cc5Request(account, elements, extra),
    });
  } catch (error) {
    throw new ProviderUnavailableError(`CMI ${call} could not be reached`, { cause: error });
  }
  if (!response.ok) throw new ProviderUnavailableError(`CMI ${call} answered HTTP ${response.status}`);
  const body = await response.text();
  if (!body.includes("<CC5Response>"))
    throw new ProviderUnavailableError(`CMI ${call} answered something other than a CC5Response`);
  return parseCc5(body);
}
