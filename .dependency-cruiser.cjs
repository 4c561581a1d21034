/**
 * Import rules, checked by `npm test` (step import-rules): no cycles anywhere, and the Worker's wings
 * (api, pipeline, console, motion, accounts) import platform/ and the shared packages, not each other, except
 * through the other wing's public.ts. accounts/ sits beneath the other four: it imports only platform/ and
 * the packages. docs/architecture.md shows the wings.
 */
const WING = "(api|pipeline|console|motion|accounts)";
/** The wings above accounts/. */
const UPPER_WING = "(api|pipeline|console|motion)";
/** Modules of Durable Object classes (they import `cloudflare:` modules, so no public.ts re-exports them). */
const DURABLE_OBJECTS = [
  "^workers/accounts/account-limiter\\.ts$",
  "^workers/console/sign-in-throttle\\.ts$",
  "^workers/motion/session-object\\.ts$",
  "^workers/pipeline/renderer/container\\.ts$",
  "^workers/pipeline/renderer/pool-object\\.ts$",
];

// ── The renderer (container/src) ──────────────────────────────────────────────────────────────────────────
/**
 * The renderer's layers from the top floor down (docs/renderer.md "Floor plan"); layers on one floor do not
 * import each other. Above them all the entry: server.ts and http/.
 */
const RENDERER_FLOORS = [["runs"], ["avatar", "video"], ["paint", "analysis"], ["media"], ["rules"], ["io"]];
const RENDERER_LAYER = `(${RENDERER_FLOORS.flat().join("|")})`;
/** The layers from the top floor down to floor i (0 = runs/). */
const layersDownTo = (i) =>
  RENDERER_FLOORS.slice(0, i + 1)
    .flat()
    .join("|");
/** The renderer's entry modules: server.ts and each layer's public.ts. */
const RENDERER_ENTRY_MODULES = ["^container/src/server\\.ts$", `^container/src/${RENDERER_LAYER}/public\\.ts$`];
const RENDERER_RULES = [
  ...RENDERER_FLOORS.map((floor, i) => ({
    name: `renderer-${floor.join("-")}-downward`,
    severity: "error",
    comment: `${floor.join("/ and ")}/: only the floors below, never the entry, a layer above or one beside.`,
    from: { path: `^container/src/(${floor.join("|")})/` },
    to: {
      path: ["^container/src/[^/]+\\.ts$", "^container/src/http/", `^container/src/(${layersDownTo(i)})/`],
      pathNot: "^container/src/$1/",
    },
  })),
  {
    name: "renderer-layers-through-public",
    severity: "error",
    comment: "Another part of the renderer enters a layer only through that layer's public.ts.",
    from: { path: "^container/src/([^/]+?)(/|\\.ts$)" },
    to: { path: `^container/src/${RENDERER_LAYER}/`, pathNot: ["^container/src/$1/", ...RENDERER_ENTRY_MODULES] },
  },
  {
    name: "renderer-from-outside-through-entry",
    severity: "error",
    comment: "Scripts, tests and everything else outside container/src import it only through its entry modules.",
    from: { pathNot: "^container/src/" },
    to: { path: "^container/src/", pathNot: RENDERER_ENTRY_MODULES },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "A cycle makes load order matter and the layering unreadable.",
      from: {},
      to: { circular: true },
    },
    {
      name: "wings-through-public",
      severity: "error",
      comment: "A wing uses another wing only through that wing's public.ts.",
      from: { path: `^workers/${WING}/` },
      to: { path: `^workers/${WING}/`, pathNot: ["^workers/$1/", `^workers/${WING}/public\\.ts$`] },
    },
    {
      name: "entry-through-public",
      severity: "error",
      comment:
        "The Worker's entry (app.ts, index.ts) mounts the wings through their public.ts; it exports the Durable Object classes from their own modules.",
      from: { path: "^workers/[^/]+\\.tsx?$" },
      to: { path: `^workers/${WING}/`, pathNot: [`^workers/${WING}/public\\.ts$`, ...DURABLE_OBJECTS] },
    },
    {
      name: "accounts-below-wings",
      severity: "error",
      comment:
        "accounts/ (the account's limits, units, people) is beneath the other wings: it never imports them or the entry.",
      from: { path: "^workers/accounts/" },
      to: { path: [`^workers/${UPPER_WING}/`, "^workers/[^/]+\\.tsx?$"] },
    },
    {
      name: "platform-below-wings",
      severity: "error",
      comment: "platform/ is beneath the wings: it never imports a wing or the entry.",
      from: { path: "^workers/platform/" },
      to: { path: [`^workers/${WING}/`, "^workers/[^/]+\\.tsx?$"] },
    },
    ...RENDERER_RULES,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "(^|/)(node_modules|dist)/|workers/motion/generated/" },
  },
};
