curl -s -X POST "$AVATAR_VIDEO_BASE_URL/v1/open/avatars" \
  -H "X-App-ID: $AVATAR_VIDEO_APP_ID" \
  -H "X-API-Key: $AVATAR_VIDEO_API_KEY" \
  -H 'Content-Type: application/json' \
  -d '{"imageUrl": "https://media.example.com/portraits/ada.jpg", "name": "Ada"}'
# {"jobId": "…", "status": "queued"}: poll GET /v1/open/avatar-jobs/<jobId> every 5 s until it ends
