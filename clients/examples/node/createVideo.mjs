import { AvatarVideo } from "@avatar-video/client";

const av = new AvatarVideo(); // reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
// Every retry of this call sends the same requestId (a new UUID unless you pass one), so it never renders twice.
const video = await av.videos.create({
  avatarId: "5b0f6c1e-8f4e-4c36-9d4a-2f1e7a0b9c11",
  audioUrl: "https://media.example.com/audio/welcome.mp3",
  video: { width: 1280, height: 720 },
});
console.log(video.jobId, video.requestId); // av.waitForVideo(video.jobId) polls it until it ended
