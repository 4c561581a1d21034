/** R2 object keys (docs/architecture.md "Avatar artifacts"). Keys are never returned to API clients. */
export const avatarKeys = (avatarId: string) => ({
  portrait: `avatars/${avatarId}/portrait.png`,
  rig: `avatars/${avatarId}/rig.json`,
  cover: `avatars/${avatarId}/cover.jpg`,
});

export const avatarPrefix = (avatarId: string) => `avatars/${avatarId}/`;

export const videoKey = (jobId: string) => `videos/${jobId}.mp4`;
