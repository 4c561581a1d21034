from avatar_video import AvatarVideo

av = AvatarVideo()  # reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
avatar = av.avatars.get("5b0f6c1e-8f4e-4c36-9d4a-2f1e7a0b9c11")
print(avatar.name, avatar.cover_url)
