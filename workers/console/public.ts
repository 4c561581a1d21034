/** What the other wings and the Worker's entry use of the web console: its router and upload retention. */
export { consoleApp } from "./router";
export { sweepConsoleUploads } from "./upload-retention";
