curl -s "$AVATAR_VIDEO_BASE_URL/v1/open/video-jobs/9a3e7d10-54c2-4f8b-b1e6-7d0c2a5f4e33" \
  -H "X-App-ID: $AVATAR_VIDEO_APP_ID" \
  -H "X-API-Key: $AVATAR_VIDEO_API_KEY"
# once "status" is "succeeded": curl -o video.mp4 "<videoUrl>" (signed for 15 minutes; no App headers)
