import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  hasSimulatorMount,
  installSimulatorMount,
  simulatorMount,
  type SimulatorMount,
} from "@/lib/providers/simulator-mount";
import * as stripeJs from "@/app/api/card-provider-sandbox/js/v3/route";
import * as confirm from "@/app/api/card-provider-sandbox/v1/payment_intents/[intentId]/confirm/route";
import * as wallet from "@/app/api/wallet-sandbox/[...path]/route";
import * as satim from "@/app/api/satim-sandbox/[...path]/route";
import { existsSync } from "node:fs";
import path from "node:path";
import { REDIRECT_SIMULATORS } from "@/simulators/simulator-list";
import { inProduction } from "../support/production-config";

/*
 * Production code reaches the simulators only through the mount a sandbox's composition root
 * installs (mount-simulators.ts): a process that installed none (production) never loads them,
 * and says so if something asks.
 */

const REGISTER_PATH = { params: Promise.resolve({ path: ["payment", "rest", "register.do"] }) };

let mounted: SimulatorMount;
beforeAll(async () => {
  // Mounted here as instrumentation.ts does in a sandbox (tests/support/setup-env.ts skips unit tests).
  const { mountSimulators } = await import("../../mount-simulators");
  mountSimulators();
  mounted = simulatorMount();
});
afterEach(() => installSimulatorMount(mounted));

describe("the simulator mount", () => {
  it("refuses with a clear error where no simulators were mounted", () => {
    installSimulatorMount(null);
    expect(hasSimulatorMount()).toBe(false);
    expect(() => simulatorMount()).toThrow("sandbox simulators are not mounted in this process");
  });

  it("is one per process, whichever copy of the module reads it (the API lane's bundle and Next.js's)", async () => {
    vi.resetModules();
    const copy = await import("@/lib/providers/simulator-mount");
    expect(copy.simulatorMount()).toBe(mounted);
  });

  it("is not needed by a production gateway: the simulators' routes answer 404 without it", async () => {
    installSimulatorMount(null);
    await inProduction(async () => {
      const js = await stripeJs.GET();
      expect(js.status).toBe(404);
      const confirmed = await confirm.POST(
        new Request("https://pay.example/api/card-provider-sandbox/v1/payment_intents/pi_1/confirm", {
          method: "POST",
          body: "{}",
        }),
        {
          params: Promise.resolve({ intentId: "pi_1" }),
        },
      );
      expect(confirmed.status).toBe(404);
      expect(await confirmed.json()).toEqual({
        error: { type: "invalid_request_error", code: "resource_missing", message: "Unrecognized request URL." },
      });
      // Every API answer carries the API headers (tests/security/api-headers.test.ts), this one too.
      expect(confirmed.headers.get("x-content-type-options")).toBe("nosniff");
      const walletAnswer = await wallet.GET(new Request("https://pay.example/api/wallet-sandbox/v1/balance"), {
        params: Promise.resolve({ path: ["v1", "balance"] }),
      });
      expect(walletAnswer.status).toBe(404);
      expect(
        (await satim.GET(new Request("https://pay.example/api/satim-sandbox/payment/rest/register.do"), REGISTER_PATH))
          .status,
      ).toBe(404);
    });
  });

  it("mounts every listed redirect simulator under /api/<name>-sandbox, served by its one-line route", async () => {
    for (const name of Object.keys(REDIRECT_SIMULATORS)) {
      expect(mounted.redirect[name]?.path).toBe(`/api/${name}-sandbox`);
      expect(existsSync(path.join(import.meta.dirname, `../../app/api/${name}-sandbox/[...path]/route.ts`))).toBe(true);
    }
    // The one handler finds the simulator by its path: a REST call without credentials gets SATIM's refusal.
    const answer = await satim.POST(
      new Request("https://pay.example/api/satim-sandbox/payment/rest/register.do", { method: "POST" }),
      REGISTER_PATH,
    );
    expect(await answer.json()).toEqual({ errorCode: "5", errorMessage: "Access denied" });
  });
});
