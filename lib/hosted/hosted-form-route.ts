import { getConfig } from "../config";
import { getGatewayKey } from "../crypto/gateway-key";
import { getDb, type Db } from "../db/client";
import { clientOrigin } from "../http/client-address";
import { isLocale } from "../i18n/locales";
import type { Locale } from "../i18n/routing";
import { formTokenFor, isCrossSitePost, isValidFormToken, type HostedFormKind } from "./form-guard";
import { isDatabaseUnavailable } from "../db/errors";
import { logger } from "../log";
import { formRefusedResponse, notFoundPageResponse, seeOther, serviceUnavailablePageResponse } from "./form-response";
import { NUL_CHARACTER_IN_FORM, readFormBody, type FormBody } from "./read-form-body";

/** The field every hosted form carries its per-page CSRF token in. */
export const FORM_TOKEN_FIELD = "formToken";

export interface HostedFormInput<P> {
  db: Db;
  locale: Locale;
  params: P;
  fields: FormBody;
  /** The client's address (lib/http/client-address.ts), null when unknown: what a per-client limit counts by. */
  clientAddress: string | null;
}

/**
 * The POST handler of one hosted form, as a plain HTML form posts it (with or without the
 * page's script): a post from another site or without the page's form token is refused
 * (403), a body that cannot be read is a 400 page, and otherwise `act` does the one thing
 * the form asks and names the page the buyer is sent to with a 303.
 */
export function hostedFormRoute<P extends { locale: string }>(options: {
  form: HostedFormKind;
  /** The form field holding the page credential (page token, client secret) the form token is bound to. */
  credentialField: string;
  act: (input: HostedFormInput<P>) => Promise<string>;
  /**
   * A simulator's form (the sandbox wallet app, the 3DS stand-in): production answers its address
   * 404, as it does its page.
   */
  sandboxOnly?: boolean;
}) {
  return async function POST(request: Request, context: { params: Promise<P> }): Promise<Response> {
    const params = await context.params;
    return orUnavailablePage(params.locale, () => handle(request, params));
  };

  async function handle(request: Request, params: P): Promise<Response> {
    if (options.sandboxOnly && !getConfig().isSandbox) return notFoundPageResponse(params.locale);
    if (!isLocale(params.locale)) return formRefusedResponse("bad_request", undefined);
    const { locale } = params;
    if (isCrossSitePost(request.headers)) return formRefusedResponse("cross_site", locale);
    const fields = await readFormBody(request);
    if (fields === NUL_CHARACTER_IN_FORM) return formRefusedResponse("nul_character", locale);
    if (!fields) return formRefusedResponse("bad_request", locale);
    const db = await getDb();
    const credential = fields[options.credentialField] ?? "";
    if (!credential || !isValidFormToken(await getGatewayKey(db), options.form, credential, fields[FORM_TOKEN_FIELD])) {
      return formRefusedResponse("cross_site", locale);
    }
    return seeOther(
      await options.act({ db, locale, params, fields, clientAddress: clientOrigin(request.headers).address }),
    );
  }
}

/** A hosted address's answer, or the 503 page while the database cannot be reached (serviceUnavailablePageResponse). */
export async function orUnavailablePage(locale: unknown, answer: () => Promise<Response>): Promise<Response> {
  try {
    return await answer();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    logger.warn({ err: error }, "database unavailable");
    return serviceUnavailablePageResponse(locale);
  }
}

/** The form token a page renders into its forms (see form-guard.ts). */
export async function hostedFormToken(db: Db, form: HostedFormKind, pageCredential: string): Promise<string> {
  return formTokenFor(await getGatewayKey(db), form, pageCredential);
}
