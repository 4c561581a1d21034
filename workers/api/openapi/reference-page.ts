/**
 * The page at /v1/open/docs: Scalar's interactive API reference over /v1/open/openapi.json (search, a request
 * builder that sends X-App-ID and X-API-Key, code samples in curl, Node and Python), all from our own origin.
 * It loads two scripts: the vendored Scalar release (scalar-release.ts) and assets/reference.ts, which starts
 * it with the configuration below.
 */

/** Where the page's two scripts are served (static/reference/, routes in api/open/reference.ts). */
export const REFERENCE_SCRIPTS = ["/reference/scalar.js", "/reference/reference.js"] as const;

/**
 * The page's Content-Security-Policy: scripts from this origin only (no inline code, no eval), requests to
 * this origin only (the document and the request builder's calls), no frames, no forms, no base URL.
 * Styles allow inline: Scalar injects style elements and attributes at run time, most without the nonce it
 * offers; no style can load anything from another site (img-src and font-src are this origin and data:).
 */
export const REFERENCE_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/** Scalar's code sample languages other than curl, Node and Python, hidden (its `hiddenClients`). */
const OTHER_LANGUAGES = [
  "c",
  "clojure",
  "csharp",
  "dart",
  "fsharp",
  "go",
  "http",
  "java",
  "js",
  "julia",
  "kotlin",
  "objc",
  "ocaml",
  "php",
  "powershell",
  "r",
  "ruby",
  "rust",
  "swift",
];

/** Scalar's configuration: only what changes its defaults, each for a reason. */
function configuration(documentUrl: string, title: string) {
  return {
    url: documentUrl,
    metaData: { title },
    withDefaultFonts: false, // they come from Scalar's font server
    telemetry: false,
    persistAuth: false, // the API key typed in stays in memory, never in localStorage
    agent: { disabled: true }, // "Ask AI" sends the document to Scalar's servers
    mcp: { disabled: true },
    showDeveloperTools: "never",
    documentDownloadType: "json",
    authentication: { preferredSecurityScheme: [["AppId", "ApiKey"]] },
    defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
    // Raw HTTP in the three languages of the document's SDK samples (x-codeSamples), nothing else.
    hiddenClients: {
      ...Object.fromEntries(OTHER_LANGUAGES.map((target) => [target, true])),
      node: ["axios", "ofetch", "undici"],
      python: ["aiohttp", "httpx_async", "httpx_sync", "python3"],
      shell: ["httpie", "wget"],
    },
  };
}

/** The page for a document served at `documentUrl`. */
export function referencePageHtml(doc: Record<string, unknown>, documentUrl: string): string {
  const info = (doc.info ?? {}) as { title?: string; version?: string };
  const title = `${info.title ?? "API"} ${info.version ?? ""} reference`;
  // A JSON data block is not run, so the CSP needs nothing for it; "<" escaped so it cannot end the element.
  const config = JSON.stringify(configuration(documentUrl, title)).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
</head>
<body>
<noscript><p>This reference runs in JavaScript. The OpenAPI document it shows: <a href="${esc(documentUrl)}">${esc(documentUrl)}</a>.</p></noscript>
<div id="reference"></div>
<script type="application/json" id="reference-config">${config}</script>
${REFERENCE_SCRIPTS.map((src) => `<script src="${src}"></script>`).join("\n")}
</body>
</html>
`;
}
