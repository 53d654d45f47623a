import { randomBytes } from "node:crypto";
import { isValidElement } from "react";
import { describe, expect, it } from "vitest";
import DemoReturnPage from "@/app/demo/return/page";
import { POST as answerChallenge } from "@/app/[locale]/card-provider-sandbox/challenge/[intentId]/answer/route";
import { POST as answerWalletApp } from "@/app/[locale]/sandbox/wallet/[paymentId]/answer/route";
import { formatAuditReport, runAudit } from "@/lib/audit/run-audit";
import { openDatabase } from "@/lib/db/client";
import { sealOrCheckDatabase } from "@/lib/db/database-seal";
import { recreateDatabase, recreateSiblingDatabase } from "../../scripts/lib/recreate-database";
import { inProduction } from "../support/production-config";

const SIMULATOR_INVARIANTS = [
  "wallet_account_ledger",
  "wallet_books_agree_with_payment",
  "card_books_agree_with_payment",
  "provider_payments_have_succeeded_payment",
  "redirect_refunds_agree_with_provider",
];

describe("production closes every sandbox surface", () => {
  const open = () => DemoReturnPage({ searchParams: Promise.resolve({ paymentId: "p", statusCode: "2" }) });

  it("answers the demo return page (/demo/return) 404 in production, and serves it in the sandbox", async () => {
    expect(isValidElement(await open())).toBe(true);
    const refused = await inProduction(() => open()).then(
      () => null,
      (error: unknown) => error as { digest?: string },
    );
    // next/navigation's notFound(): Next.js answers it with its 404 page.
    expect(refused?.digest).toBe("NEXT_HTTP_ERROR_FALLBACK;404");
  });

  it("answers simulator forms' addresses (wallet app, 3DS stand-in) 404 in production, as their pages", async () => {
    const post = () =>
      new Request("http://gateway.test/fr/x", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "outcome=complete",
      });
    const wallet = await inProduction(() =>
      answerWalletApp(post(), {
        params: Promise.resolve({ locale: "fr", paymentId: "3f0c1a52-6f7e-4d8a-9d5e-0a1b2c3d4e5f" }),
      }),
    );
    expect(wallet.status).toBe(404);
    expect(await wallet.text()).toContain("<h1>Ce lien n");
    const challenge = await inProduction(() =>
      answerChallenge(post(), { params: Promise.resolve({ locale: "fr", intentId: "pi_x" }) }),
    );
    expect(challenge.status).toBe(404);
    // The sandbox still takes them (here: refused as cross-site for want of a form token, not 404).
    expect(
      (
        await answerWalletApp(post(), {
          params: Promise.resolve({ locale: "fr", paymentId: "3f0c1a52-6f7e-4d8a-9d5e-0a1b2c3d4e5f" }),
        })
      ).status,
    ).toBe(403);
  });
});

describe("the ledger audit of a production database", () => {
  it(
    "says the three simulator invariants are not in production, rather than that a table does not exist yet",
    { timeout: 120_000 },
    async () => {
      const url = await recreateSiblingDatabase(process.env.DATABASE_URL!, "_audit_production");
      const production = await openDatabase({ databaseUrl: url, pgliteDir: "memory://", poolSize: 2 });
      try {
        await sealOrCheckDatabase(production.db, {
          environment: "production",
          gatewaySecret: randomBytes(32).toString("base64"),
        });
        const report = await runAudit(production.db, {
          retrySchedule: [5, 300],
          deliverySlackSeconds: 60,
          reconciliationBoundSeconds: 900,
        });
        const skipped = report.results.filter((result) => result.violations === null);
        expect(skipped.map((result) => [result.name, result.skipped])).toEqual(
          SIMULATOR_INVARIANTS.map((name) => [name, "not_in_production"]),
        );
        const printed = formatAuditReport(report);
        for (const name of SIMULATOR_INVARIANTS)
          expect(printed).toContain(`SKIP ${name} (not in production: the simulators' books exist only in a sandbox)`);
        expect(printed).not.toContain("does not exist yet");
      } finally {
        await production.close();
        await recreateDatabase(url, { dropOnly: true });
      }
    },
  );
});
