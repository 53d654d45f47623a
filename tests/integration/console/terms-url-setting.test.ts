import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { takeFlash } from "@/lib/console/web/console-flash";
import { getMerchantKeys } from "@/lib/console/merchants/merchant-keys";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog } from "@/lib/db/schema";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { getHostedPayment } from "@/lib/payments/hosted/get-hosted-payment";
import { consoleSessionOf, createConsoleUser, postForm, serviceIdOf } from "../../support/console";
import { createMerchant } from "../../support/factories";
import { createIntent, proceedToOtp } from "../../support/payments";
import { runScript } from "../../support/run-script";
import { useTestGateway } from "../../support/test-gateway";

const gateway = useTestGateway();
let merchant: OnboardedMerchant;
let serviceId: string;
let owner: { id: string; email: string };

beforeAll(async () => {
  merchant = await createMerchant();
  serviceId = await serviceIdOf(merchant);
  owner = await createConsoleUser([{ merchant, role: "owner" }]);
});

async function postTerms(userId: string, termsUrl: string) {
  const session = await consoleSessionOf(userId);
  const response = await postForm(
    gateway.baseUrl,
    "/en/console/actions/terms",
    { termsUrl, formToken: session.formToken },
    { cookie: session.cookie },
  );
  return { response, flash: response.status === 303 ? await takeFlash(await getDb(), session.sessionId) : null };
}

describe("the terms of payment URL (console Settings, issue 43)", () => {
  it("is saved by the owner, audited as a settings change, and reaches the hosted pages' view", async () => {
    const { response, flash } = await postTerms(owner.id, "https://shop.example/terms-of-payment");
    expect(response.status).toBe(303);
    expect(flash).toMatchObject({ kind: "notice", key: "termsSaved" });
    expect((await getMerchantKeys(await getDb(), serviceId)).termsUrl).toBe("https://shop.example/terms-of-payment");
    const audit = await (
      await getDb()
    )
      .select()
      .from(consoleAuditLog)
      .where(and(eq(consoleAuditLog.serviceId, serviceId), eq(consoleAuditLog.action, "settings_changed")));
    expect(audit.map((entry) => entry.target)).toContain("termsUrl");

    const intent = await createIntent(gateway.api, merchant);
    const token = await proceedToOtp(gateway.api, merchant, intent.paymentId);
    expect((await getHostedPayment(await getDb(), { paymentId: intent.paymentId, token }))?.termsUrl).toBe(
      "https://shop.example/terms-of-payment",
    );
  });

  it("refuses an address that is not https, with the reason beside the field, and keeps the old one", async () => {
    await postTerms(owner.id, "https://shop.example/terms");
    for (const wrong of ["http://shop.example/terms", "shop.example/terms", "javascript:alert(1)"]) {
      const { flash } = await postTerms(owner.id, wrong);
      expect(flash).toMatchObject({
        kind: "error",
        form: "terms",
        field: "termsUrl",
        detail: "must be an https URL",
        values: { termsUrl: wrong },
      });
    }
    expect((await getMerchantKeys(await getDb(), serviceId)).termsUrl).toBe("https://shop.example/terms");
  });

  it("is removed by an empty field", async () => {
    await postTerms(owner.id, "https://shop.example/terms");
    await postTerms(owner.id, "  ");
    expect((await getMerchantKeys(await getDb(), serviceId)).termsUrl).toBeNull();
  });

  it("is not changed by a role without the Settings page", async () => {
    const viewer = await createConsoleUser([{ merchant, role: "viewer" }]);
    const { response } = await postTerms(viewer.id, "https://evil.example/terms");
    expect(response.status).toBe(403);
    expect((await getMerchantKeys(await getDb(), serviceId)).termsUrl).not.toBe("https://evil.example/terms");
  });

  it("is set by npm run merchant -- update --terms-url, and refused there unless https", async () => {
    const set = await runScript("scripts/merchant.ts", [
      "update",
      "--client-id",
      merchant.clientId,
      "--terms-url",
      "https://shop.example/cgv",
      "--json",
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ termsUrl: "https://shop.example/cgv" });
    const refused = await runScript("scripts/merchant.ts", [
      "update",
      "--client-id",
      merchant.clientId,
      "--terms-url",
      "http://shop.example/cgv",
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--terms-url: must be an https URL");
    const cleared = await runScript("scripts/merchant.ts", [
      "update",
      "--client-id",
      merchant.clientId,
      "--terms-url",
      "none",
      "--json",
    ]);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ termsUrl: null });
  }, 120_000);
});
