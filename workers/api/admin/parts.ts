import { errors } from "../../platform/http/route-parts";

/** Every admin route: `Authorization: Bearer <ADMIN_TOKEN>` (checked by adminRoutes before anything else). */
export const ADMIN_AUTH = [{ AdminToken: [] }];
export const ADMIN_TAG = ["Admin"];
/** Invalid input, missing/wrong token, unknown account/App/Avatar, unexpected failure. */
export const ADMIN_ERRORS = errors(400, 401, 404, 500);
