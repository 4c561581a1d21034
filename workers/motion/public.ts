/** What the Worker's entry uses of the live motion service: its routes and the demo page. */
export { liveRoutes } from "./live-page";
export { motionRoutes } from "./routes";
