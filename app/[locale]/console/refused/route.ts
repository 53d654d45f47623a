import { consoleRefusedResponse } from "@/lib/console/web/console-responses";
import { isCapability } from "@/lib/console/access/roles";

// GET /{locale}/console/refused?need={capability}: where a console page sends a role that may not
// open it. 403, naming the role the page needs, in plain HTML (no script needed to read it).
export async function GET(request: Request, context: { params: Promise<{ locale: string }> }): Promise<Response> {
  const { locale } = await context.params;
  const need = new URL(request.url).searchParams.get("need");
  return isCapability(need)
    ? consoleRefusedResponse("forbidden", locale, need)
    : consoleRefusedResponse("not_found", locale);
}
