from avatar_video import AvatarVideo

av = AvatarVideo()  # reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
# Every Avatar, newest first; the next page is fetched as the loop reaches it.
for avatar in av.avatars.list(page_size=20):
    print(avatar.id, avatar.name)
