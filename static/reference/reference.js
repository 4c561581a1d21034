// Built by scripts/build-assets.ts from workers/api/openapi/assets/reference.ts: do not edit, run npm run build:assets.
"use strict";
(() => {
  // workers/api/openapi/assets/reference.ts
  var config = document.getElementById("reference-config")?.textContent;
  if (!window.Scalar || !config) throw new Error("API reference: scalar.js or the page's configuration is missing");
  window.Scalar.createApiReference("#reference", JSON.parse(config));
})();
