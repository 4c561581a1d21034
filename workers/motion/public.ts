/** What the Worker's entry uses of the live motion service: its routes, the demo page and the session object. */
export { liveRoutes } from "./live-page";
export { motionRoutes } from "./routes";
export { MotionSession } from "./session-object";
