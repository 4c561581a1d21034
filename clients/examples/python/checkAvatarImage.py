from avatar_video import AvatarVideo

av = AvatarVideo()  # reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
check = av.avatars.check("https://media.example.com/portraits/ada.jpg")
print("acceptable" if check.acceptable else f"refused ({check.reason}): {check.detail}")
