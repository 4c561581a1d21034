import { createRoute } from "@hono/zod-openapi";
import { adminAuth } from "../../platform/auth/admin-auth";
import { publicBaseUrl } from "../../platform/http/base-url";
import { limitBody } from "../../platform/http/body-limit";
import { openApiApp } from "../../platform/http/openapi-app";
import { generateDocument, OpenApiDocument } from "../openapi/document";
import { auditTrail } from "./audit-trail";
import { createAccountRoute } from "./create-account";
import { createAppRoute } from "./create-app";
import { createConsoleInviteRoute } from "./create-console-invite";
import { endConsoleSessionsRoute } from "./end-console-sessions";
import { getAccountRoute } from "./get-account";
import { getRendererPoolRoute } from "./get-renderer-pool";
import { grantAvatarUnitsRoute } from "./grant-avatar-units";
import { listActiveJobsRoute } from "./list-active-jobs";
import { listAppsRoute } from "./list-apps";
import { listAuditRoute } from "./list-audit";
import { listConsoleUsersRoute } from "./list-console-users";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { patchAccountRoute } from "./patch-account";
import { reconcileAccountRoute } from "./reconcile-account";
import { removeConsoleUserRoute } from "./remove-console-user";
import { revokeAppRoute } from "./revoke-app";
import { revokeConsoleInvitesRoute } from "./revoke-console-invites";
import { setAvatarAccessRoute } from "./set-avatar-access";
import { setConsoleRoleRoute } from "./set-console-role";

/** Operator admin API (docs/admin-api.md), one file per route in this folder. Every route: Authorization: Bearer ADMIN_TOKEN. */
export const adminRoutes = openApiApp();

adminRoutes.use("*", adminAuth, limitBody, auditTrail);
adminRoutes.openAPIRegistry.registerComponent("securitySchemes", "AdminToken", {
  type: "http",
  scheme: "bearer",
  description: "ADMIN_TOKEN",
});
adminRoutes
  .route("/", createAccountRoute)
  .route("/", getAccountRoute)
  .route("/", patchAccountRoute)
  .route("/", grantAvatarUnitsRoute)
  .route("/", reconcileAccountRoute)
  .route("/", createAppRoute)
  .route("/", listAppsRoute)
  .route("/", revokeAppRoute)
  .route("/", setAvatarAccessRoute)
  .route("/", createConsoleInviteRoute) // web console invites and people (docs/console.md)
  .route("/", revokeConsoleInvitesRoute)
  .route("/", listConsoleUsersRoute)
  .route("/", setConsoleRoleRoute)
  .route("/", removeConsoleUserRoute)
  .route("/", endConsoleSessionsRoute)
  .route("/", listAuditRoute) // GET /audit: who changed what (every write above leaves an entry)
  .route("/", listActiveJobsRoute) // GET /jobs/active: what the pipeline is working on
  .route("/", getRendererPoolRoute); // GET /renderer-pool: instances, leases, the line per account

const documentRoute = createRoute({
  method: "get",
  path: "/openapi.json",
  operationId: "adminGetOpenApiDocument",
  tags: ADMIN_TAG,
  summary: "This OpenAPI 3.1 document of the admin API",
  security: ADMIN_AUTH,
  responses: {
    200: { description: "OpenAPI 3.1 document", content: { "application/json": { schema: OpenApiDocument } } },
    ...ADMIN_ERRORS,
  },
});

let cached: { origin: string; doc: Record<string, unknown> } | undefined;
adminRoutes.openapi(documentRoute, (c) => {
  const origin = publicBaseUrl(c);
  if (cached?.origin !== origin) {
    cached = { origin, doc: buildAdminDocument(`${origin}/v1/admin`) };
  }
  return c.json(cached.doc, 200);
});

export function buildAdminDocument(serverUrl: string): Record<string, unknown> {
  return generateDocument(adminRoutes, serverUrl, {
    title: "Avatar and Video admin API",
    version: "1.0.0",
    description:
      "Operator API: accounts, Apps, Avatar Creations, Avatar access, console invites, active jobs, the renderer pool. Not for callers.",
    tags: [{ name: "Admin", description: "Operator endpoints (Authorization: Bearer ADMIN_TOKEN)" }],
  });
}
