import { createRoute, z } from "@hono/zod-openapi";
import { assertAllowed, videoReadBlock } from "./access";
import type { ConsoleEnv } from "./context";
import { openApiApp } from "../platform/http/openapi-app";
import { listAvatarJobs, listVideoJobs } from "./queries";
import { okJson } from "../platform/http/route-parts";
import { serializeAvatarJob, serializeVideoJob } from "../api/public";

/** Live status for the console's pages (polled every 2 s while a job runs); the signed-in account only. */
const JobList = z.object({
  jobs: z.array(z.object({ id: z.string(), status: z.string(), stage: z.string().optional() }).passthrough()),
});

const avatarJobsRoute = createRoute({
  method: "get",
  path: "/avatar-jobs",
  summary: "The account's recent Avatar jobs",
  responses: { 200: okJson("Newest first", JobList) },
});

const videoJobsRoute = createRoute({
  method: "get",
  path: "/video-jobs",
  summary: "The account's recent video jobs with their stage",
  responses: { 200: okJson("Newest first", JobList) },
});

export const statusApi = openApiApp<ConsoleEnv>()
  .openapi(avatarJobsRoute, async (c) => {
    const jobs = await listAvatarJobs(c.env, c.get("session").account.id);
    return c.json({ jobs: jobs.map((j) => serializeAvatarJob(j)) }, 200);
  })
  .openapi(videoJobsRoute, async (c) => {
    const { account } = c.get("session");
    assertAllowed(videoReadBlock(account));
    const now = Date.now();
    const jobs = await listVideoJobs(c.env, account.id);
    return c.json({ jobs: jobs.map((j) => ({ ...serializeVideoJob(j, now), stage: j.stage })) }, 200);
  });
