/**
 * Starts Scalar's API reference (static/reference/scalar.js, loaded just before this script) on the page
 * that reference-page.ts renders. The configuration travels in a JSON data block, because the page's CSP
 * runs no inline script.
 */
declare global {
  interface Window {
    Scalar?: { createApiReference(selector: string, configuration: unknown): unknown };
  }
}

const config = document.getElementById("reference-config")?.textContent;
if (!window.Scalar || !config) throw new Error("API reference: scalar.js or the page's configuration is missing");
window.Scalar.createApiReference("#reference", JSON.parse(config));

export {};
