from avatar_video import AvatarVideo

av = AvatarVideo()  # reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
job = av.avatar_jobs.get("0d7c5a2e-3b9f-4e61-8a4d-6c2b1f9e8a70")
print(job.status, job.avatar_id or (job.error and job.error.reason) or "")
