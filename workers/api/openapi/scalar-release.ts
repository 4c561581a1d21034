/**
 * The Scalar API reference release that /v1/open/docs runs: the standalone browser build of
 * @scalar/api-reference, vendored as static/reference/scalar.js by scripts/vendor-scalar.ts (which writes
 * the SHA-256 below; test/worker/api/openapi-reference.test.ts checks the served file against it).
 */
export const SCALAR_RELEASE = {
  version: "1.76.0",
  sha256: "e8dec494447f9441f92762cd69969cfd06a86e5a140c5c24dad960b57cb65d09",
};
