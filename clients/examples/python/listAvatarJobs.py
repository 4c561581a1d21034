from avatar_video import AvatarVideo

av = AvatarVideo()  # reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
for job in av.avatar_jobs.list(statuses=["succeeded"], page_size=20):
    print(job.id, job.avatar_id)
