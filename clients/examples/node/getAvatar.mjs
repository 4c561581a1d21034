import { AvatarVideo } from "@avatar-video/client";

const av = new AvatarVideo(); // reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
const avatar = await av.avatars.get("5b0f6c1e-8f4e-4c36-9d4a-2f1e7a0b9c11");
console.log(avatar.name, avatar.coverUrl);
