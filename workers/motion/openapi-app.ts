import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { invalid } from "../http/errors";
import { describeIssues } from "../http/validation";

/** The motion routes' OpenAPIHono: validation failures are the house 400 invalid_request (field + rule). */
export const motionApp = () =>
  new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw invalid(describeIssues(result.error.issues as never, result.target));
    },
  });

export const errorResponses = (codes: Record<number, string>) =>
  Object.fromEntries(Object.entries(codes).map(([status, description]) => [status, { description: `${description} (error envelope)` }]));
