/**
 * The import rule of ARCHITECTURE.md, checked by `npm run lint:imports` (part of `npm test`):
 * app/ → lib/ (→ lib/db), never back; lib/http and lib/api are the HTTP edge that only route
 * handlers, pages and the edge itself import; the domain never imports the edge, app/ or Next.js;
 * production code never imports the simulators (simulators/) nor the composition root that mounts
 * them (mount-simulators.ts), which only instrumentation.ts, the scripts and the tests call; no
 * import cycles.
 * @type {import('dependency-cruiser').IConfiguration}
 */

// The HTTP edge: request/response handling and the API registry built on the domain.
const EDGE = "^lib/(http|api)/";
// Code that serves HTTP itself (allowed to import the edge): the health answers, the hosted forms' POST handling and
// the payment link answers that are not pages (its shared url, its 410, its QR code).
const EDGE_USERS = [
  EDGE,
  "^lib/health/health-response\\.ts$",
  "^lib/hosted/read-form-body\\.ts$",
  "^lib/hosted/(hosted-form-route|hosted-lane|form-response|log-page-request|page-headers|security-headers|" +
    "payment-link-entry|payment-link-qr|receipts/receipt-pdf-response)\\.ts$",
  // The console's forms answer with the hosted pages' headers, its lane serves its pages
  // (lib/console/web is the console's edge), and its forms' POST handler reads the client's address
  // (lib/http/client-address.ts).
  "^lib/console/web/(console-responses|console-lane|console-form-route)\\.ts$",
];
// What the gateway knows of each payment method without loading it: each method's declaration
// (lib/payment-methods/<method>/declaration/: its code, provider name, catalog row, configuration
// variables, payment page origins; zod and the setting shapes only) and their one list
// (lib/payment-methods/declarations). Part of the foundation: the configuration, the codes, the
// schema and the proxy's CSP derive from them.
const METHOD_DECLARATIONS = "^lib/payment-methods/(declarations|[^/]+/declaration)/";
// The lowest layer: every module may use these, and they use nothing above them (background-job
// is the job type every module implements; lib/jobs runs them; lib/urls holds every hosted URL
// shape and the origin allow-list rule, which payments (payUrl), auth (browser origins) and the
// sandbox wallet (the QR code's content) all use; lib/time-limit bounds every outgoing call;
// lib/metrics and lib/tracing are the counters and spans every layer reports to).
const FOUNDATION = [
  "^lib/(db|errors|validation|money|geo|crypto|i18n|metrics|tracing)/",
  "^lib/(clock|config|log|background-job|time-limit)\\.ts$",
  "^lib/urls/",
  METHOD_DECLARATIONS,
].join("|");

// A payment method's own folder: every folder of lib/payment-methods but the codes, the contract
// every method implements, the registry that lists them and the declarations (below, in the
// foundation) (ARCHITECTURE.md "Adding a payment method").
// It holds all of the method's code: its module, provider calls, hosted step, reconciliation, messages.
// redirect/ is the archetype every REDIRECT method shares (contract 15), below them like the contract.
const METHOD_MODULE =
  "^lib/payment-methods/(?!codes/|contract/|registry/|redirect/|declarations/)[^/]+/(?!declaration/)";
// What a method folder stands on: the foundation, lib/payments/core, the contract, the codes, the
// redirect archetype, and the modules below the payments (providers and their operations, the
// wallet connection, saved cards, page tokens, the merchant's return URLs, idempotency's types,
// QR images). Everything else (operations, hosted pages, the registry, the edge, app/) is above it.
const BELOW_METHODS = [
  FOUNDATION,
  "^lib/payments/core/",
  "^lib/payment-methods/(codes|contract|redirect)/",
  "^lib/(providers|provider-operations|wallet-connection|cards|auth|merchants|idempotency|qr-code)/",
];

// What a browser island (components/islands, built by scripts/build-islands.mjs) may import:
// its fellow islands' helpers and pure constant modules the server shares with it. Nothing else
// is safe in the browser bundle (React, next-intl, server code, secrets).
// altcha-lib: the anti-bot island's proof-of-work solver (Web Crypto only; esbuild keeps just what it uses).
const ISLAND_SAFE = ["^components/islands/", "^lib/hosted/hosted-timing\\.ts$", "^node_modules/altcha-lib/"];

// Production code: what a production gateway runs. The simulators (simulators/: the Stripe
// simulator and the sandbox wallet) stand for systems outside the gateway and are not part of it.
const PRODUCTION = "^(lib|app|components)/|^(proxy|instrumentation)\\.ts$";
// The composition root that installs the simulators behind lib/providers/simulator-mount.ts (the
// port production code reads). instrumentation.ts calls it in a sandbox, behind a dynamic import
// a production process never runs; nothing else of production may reach it.
const SIMULATOR_MOUNT = "^mount-simulators\\.ts$";

// A folder of lib/ with subfolders: each subfolder sits either below the files beside it (the
// default: a part the folder's own files use, as lib/db/schema, lib/api/operations, lib/providers/card)
// or above them (listed here: built on those files, as the hosted pages' view models). So a folder's
// own files and its subfolders never import each other both ways, which `no-folder-cycles` cannot see
// (it counts a subfolder inside its parent): together they check "no two folders of lib/ reach each
// other" at every depth. lib/'s own files (clock, config, log...) are the foundation, below every folder.
const ABOVE_THEIR_PARENT = [
  "lib/hosted/views",
  "lib/hosted/receipts",
  "lib/console/web/actions",
  "lib/payment-methods/card/hosted",
  "lib/payment-methods/wallet/hosted",
];
const DEEPEST_FOLDER = 4;

/** The two rules for the folders `depth` levels below lib/ (1: lib/hosted) and their subfolders. */
function subfolderRules(depth) {
  const folder = `^(lib${"/[^/]+".repeat(depth)})`;
  const above = ABOVE_THEIR_PARENT.filter((path) => path.split("/").length === depth + 2).join("|");
  const rules = [
    {
      name: `subfolder-not-up-${depth}`,
      severity: "error",
      comment:
        "A subfolder below its folder's own files (a part they use) never imports them: move the shared " +
        "piece into the subfolder or below, or list the subfolder in ABOVE_THEIR_PARENT if it is built on " +
        "those files (and then they must not import it).",
      from: above ? { path: `${folder}/[^/]+/`, pathNot: `^(${above})/` } : { path: `${folder}/[^/]+/` },
      to: { path: "^$1/[^/]+$" },
    },
  ];
  if (above)
    rules.push({
      name: `subfolder-above-stays-above-${depth}`,
      severity: "error",
      comment:
        "A subfolder listed in ABOVE_THEIR_PARENT is built on its folder's own files: neither they nor the " +
        "subfolders below them import it.",
      from: { path: `${folder}/`, pathNot: `^(${above})/` },
      to: { path: `^(?=(${above})/)$1/` },
    });
  return rules;
}

module.exports = {
  forbidden: [
    ...Array.from({ length: DEEPEST_FOLDER }, (_, index) => subfolderRules(index + 1)).flat(),
    {
      name: "production-not-to-simulators",
      severity: "error",
      comment:
        "Production code never imports a simulator: a sandbox gateway reaches the simulators it hosts " +
        "through the port lib/providers/simulator-mount.ts, which mount-simulators.ts fills, and over the " +
        "same adapters as a production provider (only addresses and keys differ).",
      from: { path: PRODUCTION },
      to: { path: "^simulators/" },
    },
    {
      name: "production-not-to-the-mount",
      severity: "error",
      comment:
        "Only instrumentation.ts (in a sandbox), the scripts and the tests mount the simulators: lib/, " +
        "app/, components/ and the proxy read the port (lib/providers/simulator-mount.ts), never the " +
        "composition root that fills it.",
      from: { path: PRODUCTION, pathNot: "^instrumentation\\.ts$" },
      to: { path: SIMULATOR_MOUNT },
    },
    {
      name: "instrumentation-mounts-lazily",
      severity: "error",
      comment:
        "instrumentation.ts reaches the mount only by a dynamic import taken in a sandbox: a static one " +
        "would load the simulators into every production process.",
      from: { path: "^instrumentation\\.ts$" },
      to: { path: SIMULATOR_MOUNT, dependencyTypesNot: ["dynamic-import"] },
    },
    {
      name: "islands-browser-only",
      severity: "error",
      comment:
        "An island is a few KB of vanilla browser code: it imports only components/islands and the pure " +
        "constant modules listed in ISLAND_SAFE.",
      from: { path: "^components/islands/" },
      to: { pathNot: ISLAND_SAFE },
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle: one of the two modules belongs lower, or shares a piece that should move down.",
      from: { path: "^(lib|app|components)/" },
      to: { circular: true },
    },
    {
      name: "no-folder-cycles",
      scope: "folder",
      severity: "error",
      comment:
        "Two folders of lib/ that reach each other (directly or round a loop) are one module in two places: " +
        "move the shared piece down (as lib/urls, lib/db/payment-record.ts) or pass it in.",
      from: { path: "^lib/" },
      to: { circular: true },
    },
    {
      name: "lib-not-to-app",
      severity: "error",
      comment: "lib/ is below app/ and components/: the domain never imports pages, route handlers or UI.",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "domain-not-to-edge",
      severity: "error",
      comment:
        "Domain code never imports the HTTP edge (lib/http, lib/api): throw ApiError from lib/errors, " +
        "return results, and let the edge render them.",
      from: { path: "^lib/", pathNot: EDGE_USERS },
      to: { path: EDGE },
    },
    {
      name: "domain-not-to-next",
      severity: "error",
      comment: "Domain code does not depend on Next.js; pages and route handlers do.",
      from: { path: "^lib/", pathNot: ["^lib/i18n/(request|page-title)\\.ts$"] },
      to: {
        path: "^next(/|$)",
        dependencyTypes: ["npm", "npm-dev", "npm-peer", "npm-no-pkg", "npm-unknown", "unknown", "undetermined"],
      },
    },
    {
      name: "foundation-stays-low",
      severity: "error",
      comment:
        "The foundation (db, errors, validation, money, geo, crypto, i18n, clock, config, log) imports " +
        "nothing above it.",
      from: { path: FOUNDATION, pathNot: ["^lib/db/schema/"] },
      to: { path: "^lib/", pathNot: FOUNDATION },
    },
    {
      name: "payments-layers",
      severity: "error",
      comment:
        "lib/payments/core (state machine, records, expiry, the funds port, the hosted-page token check) is " +
        "the bottom of the payments: it sits below the method catalog, the method folders and every other " +
        "domain module, and imports nothing of lib/payment-methods. What it needs of a method (how its " +
        "funds move) it declares as a port (lib/payments/core/method-funds.ts) that each method's folder " +
        "fills and the registry hands to the core's callers.",
      from: { path: "^lib/payments/core/" },
      to: { path: "^lib/(payments/(operations|hosted)|payment-methods|cards|hosted)/" },
    },
    {
      name: "catalog-below-payment-operations",
      severity: "error",
      comment:
        "The method catalog and lists (lib/payment-methods/*.ts, lib/cards) and the method modules " +
        "(lib/payment-methods/<method>/, with their contract and registry) never import payment operations " +
        "nor the hosted pages: the operations dispatch to the methods through the registry (a payments <-> " +
        "payment-methods cycle otherwise).",
      from: { path: "^lib/(payment-methods|cards)/" },
      to: { path: "^lib/(payments/(operations|hosted)|hosted)/" },
    },
    {
      name: "methods-through-the-registry",
      severity: "error",
      comment:
        "A payment method module (lib/payment-methods/<method>/) is reached only through " +
        "lib/payment-methods/registry: code outside asks the registry (its module table, " +
        "payment-method-registry.ts, or for a method's own route, page, form or job, " +
        "method-entry-points.ts), so adding a method touches the registry, not its callers.",
      from: {
        path: "^(lib|app|components)/|^mount-simulators\\.ts$",
        pathNot: ["^lib/payment-methods/registry/", METHOD_MODULE],
      },
      to: { path: METHOD_MODULE },
    },
    {
      name: "methods-above-the-core",
      severity: "error",
      comment:
        "A payment method's folder sits just above lib/payments/core: it imports the core, the contract, " +
        "the codes and the modules below the payments (BELOW_METHODS), never payment operations, hosted " +
        "pages, the registry or the provider-operation list above it. What it needs of those is passed in " +
        "through the contract (e.g. the hosted page's payment view, " +
        "lib/payment-methods/contract/hosted-payment-view.ts) or moves down into the core " +
        "(hosted-access.ts).",
      from: { path: METHOD_MODULE },
      to: { path: "^lib/", pathNot: [...BELOW_METHODS, METHOD_MODULE] },
    },
    {
      name: "methods-apart",
      severity: "error",
      comment: "Payment methods never import each other: what two share moves down (lib/payments/core, the contract).",
      from: { path: METHOD_MODULE.replace("[^/]+", "([^/]+)") },
      to: { path: METHOD_MODULE, pathNot: "^lib/payment-methods/$1/" },
    },
    {
      name: "console-domain-not-to-web",
      severity: "error",
      comment:
        "The console is one tree in three layers: its domain (lib/console/access, payments, customers, " +
        "merchants, home) below its web edge (lib/console/web: the lane, forms, actions, cookies, " +
        "responses) below its pages (app/[locale]/console/_pages, which lib-not-to-app keeps out of lib/: " +
        "the lane is handed the page list by its bundle's entry, never imports it). The domain never " +
        "imports the web edge: what a page or form needs of it is passed in or returned.",
      from: { path: "^lib/console/", pathNot: "^lib/console/web/" },
      to: { path: "^lib/console/web/" },
    },
    {
      name: "console-access-at-the-bottom",
      severity: "error",
      comment:
        "lib/console/access (people, sessions, passwords, two-step, invitations, team, roles) is the bottom " +
        "of the console's domain: the merchants, payments, customers and home build on it, never the " +
        "reverse.",
      from: { path: "^lib/console/access/" },
      to: { path: "^lib/console/(?!access/)" },
    },
    {
      name: "components-present-only",
      severity: "error",
      comment:
        "components/ renders what it is handed: it loads no data (no database client, no console page " +
        "list). A page that loads data lives with the routes (app/[locale]/console/_pages for the console).",
      from: { path: "^components/" },
      to: { path: "^(lib/db/client\\.ts$|app/)", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "method-codes-stay-low",
      severity: "error",
      comment:
        "lib/payment-methods/codes is read by every method folder and the catalog: it imports nothing of " +
        "the domain (types of lib/i18n and lib/db only).",
      from: { path: "^lib/payment-methods/codes/" },
      to: { path: "^lib/", pathNot: [FOUNDATION, "^lib/payment-methods/codes/"] },
    },
  ],
  options: {
    // The simulators are a leaf of this graph (reached from mount-simulators.ts only): what they
    // import is checked by simulators/.dependency-cruiser.cjs (the second half of `npm run lint:imports`).
    doNotFollow: { path: ["node_modules", "^simulators/"] },
    exclude: { path: "(^|/)(node_modules|\\.next|\\.data|clients)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
