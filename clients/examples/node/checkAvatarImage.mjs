import { AvatarVideo } from "@avatar-video/client";

const av = new AvatarVideo(); // reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
const check = await av.avatars.check({ imageUrl: "https://media.example.com/portraits/ada.jpg" });
console.log(check.acceptable ? "acceptable" : `refused (${check.reason}): ${check.detail}`);
