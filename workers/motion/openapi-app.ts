import { openApiApp } from "../platform/http/openapi-app";

/** The motion routes' OpenAPIHono: the Worker's one factory (validation failures are 400 invalid_request naming field + rule). */
export const motionApp = () => openApiApp();

export const errorResponses = (codes: Record<number, string>) =>
  Object.fromEntries(
    Object.entries(codes).map(([status, description]) => [status, { description: `${description} (error envelope)` }]),
  );
