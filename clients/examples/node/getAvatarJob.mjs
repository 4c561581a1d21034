import { AvatarVideo } from "@avatar-video/client";

const av = new AvatarVideo(); // reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
const job = await av.avatarJobs.get("0d7c5a2e-3b9f-4e61-8a4d-6c2b1f9e8a70");
console.log(job.status, job.avatarId ?? job.error?.reason ?? "");
