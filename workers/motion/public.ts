/** What the Worker's entry and the console use of the live motion service: its routes and the live page. */
export { liveRoutes } from "./live-page";
export { livePageHtml } from "./live-page-view";
export { liveSession } from "./live-session";
export { motionRoutes } from "./routes";
