import { OpenAPIHono } from "@hono/zod-openapi";
import type { Env } from "hono";
import { invalid } from "../http/errors";
import { describeIssues } from "../http/validation";

/**
 * An OpenAPIHono whose validation failures are the house 400 invalid_request (field + rule in the
 * message), like every other route.
 */
export const openApiApp = <E extends Env>() =>
  new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success) throw invalid(describeIssues(result.error.issues as never, result.target));
    },
  });
