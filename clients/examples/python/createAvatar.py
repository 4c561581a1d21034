from avatar_video import AvatarVideo

av = AvatarVideo()  # reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
created = av.avatars.create(image_url="https://media.example.com/portraits/ada.jpg", name="Ada")
print(created.job_id)  # av.wait_for_avatar(created.job_id) polls it until it succeeded or failed
