import { AvatarVideo } from "@avatar-video/client";

const av = new AvatarVideo(); // reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
const { job, videoUrl } = await av.videos.get("9a3e7d10-54c2-4f8b-b1e6-7d0c2a5f4e33");
console.log(job.status, job.progress.stage, videoUrl ?? ""); // videoUrl: the MP4, signed for 15 minutes
