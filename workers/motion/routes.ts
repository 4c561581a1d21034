import { motionApp } from "./openapi-app";
import { clientRoute } from "./client-route";
import { connectRoute } from "./connect-route";
import { rigRoute } from "./rig-route";

/** /v1/motion: the live motion service (docs/motion.md). */
export const motionRoutes = motionApp().route("/", connectRoute).route("/", rigRoute).route("/", clientRoute);
