import { AvatarVideo } from "@avatar-video/client";

const av = new AvatarVideo(); // reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
for await (const job of av.avatarJobs.list({ statuses: ["succeeded"], pageSize: 20 }))
  console.log(job.id, job.avatarId);
