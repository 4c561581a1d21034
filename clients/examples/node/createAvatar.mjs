import { AvatarVideo } from "@avatar-video/client";

const av = new AvatarVideo(); // reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
const { jobId } = await av.avatars.create({ imageUrl: "https://media.example.com/portraits/ada.jpg", name: "Ada" });
console.log(jobId); // av.waitForAvatar(jobId) polls it until it succeeded or failed
