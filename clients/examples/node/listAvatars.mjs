import { AvatarVideo } from "@avatar-video/client";

const av = new AvatarVideo(); // reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
// Every Avatar, newest first; the next page is fetched as the loop reaches it.
for await (const avatar of av.avatars.list({ pageSize: 20 })) console.log(avatar.id, avatar.name);
