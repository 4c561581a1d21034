import { Hono } from "hono";
import { forbidden } from "../platform/http/errors";
import { serveObject } from "../platform/storage/serve";
import { asAppContext, type ConsoleEnv } from "./context";
import { uploadForLink } from "./uploads";

/** GET /console/files/{uploadId}?exp&sig — an uploaded source for the renderer; the signature is the credential. */
export const fileRoutes = new Hono<ConsoleEnv>().get("/:uploadId", async (c) => {
  const upload = await uploadForLink(c.env, c.req.param("uploadId"), c.req.query("exp"), c.req.query("sig"));
  if (!upload) throw forbidden("The file link is invalid or has expired.");
  return serveObject(asAppContext(c), upload.key, {
    contentType: upload.contentType,
    cacheControl: "private, max-age=300",
    notFoundMessage: "The uploaded file no longer exists.",
  });
});
