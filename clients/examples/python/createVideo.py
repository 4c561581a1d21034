from avatar_video import AvatarVideo, VideoSettings

av = AvatarVideo()  # reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
# Every retry of this call sends the same request_id (a new UUID unless you pass one), so it never renders twice.
video = av.videos.create(
    avatar_id="5b0f6c1e-8f4e-4c36-9d4a-2f1e7a0b9c11",
    audio_url="https://media.example.com/audio/welcome.mp3",
    video=VideoSettings(width=1280, height=720),
)
print(video.job_id, video.request_id)  # av.wait_for_video(video.job_id) polls it until it ended
