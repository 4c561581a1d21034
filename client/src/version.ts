/** The package version, sent in User-Agent. client/scripts/release.ts keeps it equal to package.json's. */
export const VERSION = "0.1.0";
