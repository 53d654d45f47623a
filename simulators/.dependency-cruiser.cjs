/**
 * The second half of `npm run lint:imports`: the simulators' own imports. Production's graph
 * (../.dependency-cruiser.cjs) stops at simulators/, which only mount-simulators.ts reaches, so
 * that the simulators do not make every lib/ folder they read part of a folder loop; here the
 * simulators are followed, and checked against what a provider may know of the gateway.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const production = require("../.dependency-cruiser.cjs");

const FOUNDATION = production.forbidden.find((rule) => rule.name === "foundation-stays-low").from.path;

module.exports = {
  forbidden: [
    {
      name: "simulators-see-the-contract-only",
      severity: "error",
      comment:
        "A simulator knows the gateway only as a provider does: the foundation, the provider ports and " +
        "protocols (lib/providers), serving HTTP (lib/http), and the sandbox links it hands out (the wallet " +
        "app's link). Never the payments domain.",
      from: { path: "^simulators/" },
      to: {
        path: "^lib/",
        pathNot: [FOUNDATION, "^lib/providers/", "^lib/http/", "^lib/wallet-connection/wallet-app-token\\.ts$"],
      },
    },
    {
      name: "simulators-no-circular",
      severity: "error",
      comment: "An import cycle in a simulator, or between a simulator and the gateway.",
      from: { path: "^simulators/" },
      to: { circular: true },
    },
  ],
  options: { ...production.options, doNotFollow: { path: "node_modules" } },
};
