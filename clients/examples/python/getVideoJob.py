from avatar_video import AvatarVideo

av = AvatarVideo()  # reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
detail = av.videos.get("9a3e7d10-54c2-4f8b-b1e6-7d0c2a5f4e33")
print(detail.job.status, detail.job.progress.stage, detail.video_url or "")  # the MP4, signed for 15 minutes
