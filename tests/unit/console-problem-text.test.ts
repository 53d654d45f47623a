import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fieldProblemText, operationProblemText } from "@/components/console/problem-text";
import { parsePaymentListQuery } from "@/lib/console/payments/payment-list-filters";
import { AmountError, toMinorUnits } from "@/lib/money/amount";
import { amountProblem } from "@/lib/money/amount.schema";
import { NEGATIVE_AMOUNT } from "@/lib/money/typed-amount";
import { createPaymentLinkBody } from "@/lib/payment-links/payment-link.schema";
import { capturePaymentBody } from "@/lib/payments/operations/capture-payment.schema";
import { refundPaymentBody } from "@/lib/payments/operations/refund-payment.schema";

const problems = (locale: string) =>
  (
    JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../messages/console", `${locale}.json`), "utf8")) as {
      consoleProblems: Record<string, string>;
    }
  ).consoleProblems;

function amountErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AmountError) return error.message;
  }
  throw new Error("no AmountError");
}

/** Every message the rules behind the console's forms write for a field (English, the API's). */
function messagesOfTheRules(): string[] {
  const zodMessages = [
    ...capturePaymentBody.safeParse({ amount: Number.NaN }).error!.issues,
    ...refundPaymentBody.safeParse({ description: "", amount: -1 }).error!.issues,
    ...refundPaymentBody.safeParse({ description: "x".repeat(501) }).error!.issues,
    ...createPaymentLinkBody.safeParse({
      title: "",
      amount: "abc",
      currency: "XXX",
      countryCode: "DZA",
      expiresAt: "tomorrow",
    }).error!.issues,
    ...createPaymentLinkBody.safeParse({
      title: "t".repeat(101),
      amount: 5,
      minAmount: 1,
      currency: "DZD",
      countryCode: "DZA",
    }).error!.issues,
    ...createPaymentLinkBody.safeParse({ title: "t", minAmount: 9, maxAmount: 1, currency: "DZD", countryCode: "DZA" })
      .error!.issues,
  ].map((issue) => issue.message);
  const list = parsePaymentListQuery({
    currency: "XXX",
    amountFrom: "abc",
    amountTo: "-3",
    createdFrom: "yesterday",
    q: "q".repeat(101),
  });
  const listMessages = list.ok ? [] : list.problems.map((problem) => problem.message);
  return [
    ...zodMessages,
    ...listMessages,
    amountProblem(0)!,
    amountProblem(2e9)!,
    amountProblem(1.23456)!,
    amountErrorOf(() => toMinorUnits(1.234, "DZD")),
    amountErrorOf(() => toMinorUnits(1.5, "XOF")),
    NEGATIVE_AMOUNT,
    "must be in the future",
    "In production the webhook URL must use https.",
    "The service has no webhook URL to deliver to; set one with `npm run merchant -- update`.",
  ];
}

describe("the console's words for a refused field or operation", () => {
  it("has a sentence of its own for every rule behind the console's forms, in every language", () => {
    const messages = messagesOfTheRules();
    expect(messages.length).toBeGreaterThan(15);
    for (const locale of ["en", "fr", "ar"] as const) {
      const general = problems(locale).invalid;
      for (const message of messages)
        expect(fieldProblemText(locale, message), `${locale}: ${message}`).not.toBe(general);
    }
  });

  it("says what the rule says, with its number, and never the API's English on a French or Arabic page", () => {
    expect(fieldProblemText("en", "must be a number")).toBe("Enter a number, such as 150 or 150,50.");
    expect(fieldProblemText("fr", "must have at most 2 decimal places for DZD")).toBe("Utilisez au plus 2 décimales.");
    expect(fieldProblemText("ar", NEGATIVE_AMOUNT)).toBe("لا يمكن أن يكون المبلغ سالبًا: أدخله دون علامة الناقص.");
    for (const locale of ["fr", "ar"] as const) {
      for (const message of [...messagesOfTheRules(), "a rule nobody wrote a sentence for"]) {
        expect(fieldProblemText(locale, message)).not.toMatch(
          /\bmust\b|\bInvalid\b|\bexpected\b|webhook URL to deliver/,
        );
      }
    }
    expect(fieldProblemText("ar", "a rule nobody wrote a sentence for")).toBe(problems("ar").invalid);
  });

  it("words an operation's refusal by its error name, with the amounts and state the page gives", () => {
    const values = { refundable: "10,00 DZD", capturable: "30,00 DZD", state: "Remboursé partiellement" };
    expect(operationProblemText("fr", "amount_exceeds_refundable", values)).toBe(
      "le montant dépasse ce qui peut encore être remboursé (10,00 DZD).",
    );
    expect(operationProblemText("fr", "invalid_state", values)).toBe(
      "le paiement ne le permet pas dans son état (Remboursé partiellement).",
    );
    expect(operationProblemText("ar", "amount_exceeds_reserved", values)).toContain("30,00 DZD");
    expect(operationProblemText("ar", "something else", values)).toBe(problems("ar").notDone);
  });

  it("keeps the same keys in the three languages, and French and Arabic differ from English", () => {
    const [en, fr, ar] = [problems("en"), problems("fr"), problems("ar")];
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(ar).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en)) {
      expect(fr[key], key).not.toBe(en[key]);
      expect(ar[key], key).not.toBe(en[key]);
    }
  });
});
