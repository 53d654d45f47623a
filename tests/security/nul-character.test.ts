import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import proxy from "@/proxy";
import { consoleActions } from "@/lib/console/web/actions/console-actions";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog } from "@/lib/db/schema";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { consoleSessionOf, createConsoleUser, postForm, TEST_PASSWORD } from "../support/console";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";

// A U+0000 reached PostgreSQL (which cannot hold it in text) and answered 500; the API answers 400.
const gateway = useTestGateway();
let merchant: OnboardedMerchant;
let owner: { id: string; email: string };

beforeAll(async () => {
  merchant = await createMerchant();
  owner = await createConsoleUser([{ merchant, role: "owner" }]);
});

/** What the console's forms post, each form reading some of them. */
const FIELDS = [
  "email",
  "password",
  "code",
  "amount",
  "reason",
  "name",
  "businessName",
  "role",
  "member",
  "title",
  "url",
  "invitation",
  "payment",
  "link",
];

async function auditEntriesOf(email: string): Promise<number> {
  return (await (await getDb()).select().from(consoleAuditLog).where(eq(consoleAuditLog.userEmail, email))).length;
}

describe("a NUL byte in a console form", { timeout: 120_000 }, () => {
  it("refuses the unauthenticated sign-in with 400, in the email or the password, and records nothing", async () => {
    const posts: Record<string, string>[] = [
      { email: `${owner.email}\0`, password: TEST_PASSWORD },
      { email: owner.email, password: `${TEST_PASSWORD}\0` },
      { email: owner.email, [`pass\0word`]: TEST_PASSWORD },
    ];
    for (const fields of posts) {
      const response = await postForm(gateway.baseUrl, "/fr/console/actions/sign-in", fields);
      expect(response.status).toBe(400);
      expect(response.headers.get("set-cookie")).toBeNull();
      expect(await response.text()).toContain("Un caractère qui ne peut pas être accepté");
    }
    expect(await auditEntriesOf(owner.email)).toBe(0);
  });

  it.each(Object.keys(consoleActions))(
    "refuses it in any field of %s with 400, for a signed-in owner too",
    async (action) => {
      const session = await consoleSessionOf(owner.id);
      for (const [index, field] of FIELDS.entries()) {
        if (index % 3 !== Object.keys(consoleActions).indexOf(action) % 3) continue;
        const fields = {
          formToken: session.formToken,
          ...Object.fromEntries(FIELDS.map((name) => [name, "1"])),
          [field]: "a\0b",
        };
        const response = await postForm(gateway.baseUrl, `/en/console/actions/${action}`, fields, {
          cookie: session.cookie,
          origin: gateway.baseUrl,
        });
        expect(response.status, `${action} ${field}`).toBe(400);
        expect(await response.text()).toContain("A character that cannot be accepted");
      }
      expect(await auditEntriesOf(owner.email)).toBe(0);
    },
  );
});

describe("a %00 in any page's address (console searches, filters, ids; a link page's fields)", () => {
  it.each([
    ["/en/console/payments?q=%00", "A character that cannot be accepted"],
    ["/en/console/payments?status=SUCCEEDED&amountFrom=1%00", "A character that cannot be accepted"],
    ["/en/console/payments/export?q=0555%0012", "A character that cannot be accepted"],
    ["/en/console/payments/%00", "A character that cannot be accepted"],
    ["/fr/console/customers?q=%00", "Un caractère qui ne peut pas être accepté"],
    ["/ar/console/audit-log?user=%00&action=sign_in", "حرف لا يمكن قبوله"],
    ["/en/console/sign-in?email=%00", "A character that cannot be accepted"],
    ["/en/console/invitations/%00", "A character that cannot be accepted"],
    ["/en/l/plink_x?amount=%00", "A character that cannot be accepted"],
  ])("answers %s with 400 and says why, before any page reads it", async (path, title) => {
    const response = proxy(new NextRequest(`http://gateway.test${path}`));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(title);
  });

  it("still serves an address with an escaped percent sign (%2500 is the text %00, no NUL)", () => {
    expect(proxy(new NextRequest("http://gateway.test/en/console/payments?q=%2500")).status).not.toBe(400);
  });
});
