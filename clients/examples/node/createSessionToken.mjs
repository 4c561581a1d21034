import { AvatarVideo } from "@avatar-video/client";

const av = new AvatarVideo(); // reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
// One token per live connection; give it to the page, never the key.
const { sessionToken, expireAt } = await av.sessionTokens.create({ ttlSeconds: 600 });
console.log(sessionToken, expireAt);
