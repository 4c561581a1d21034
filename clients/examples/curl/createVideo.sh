# requestId: a new UUID per video; send the same one to retry without rendering twice
curl -s -X POST "$AVATAR_VIDEO_BASE_URL/v1/open/videos" \
  -H "X-App-ID: $AVATAR_VIDEO_APP_ID" \
  -H "X-API-Key: $AVATAR_VIDEO_API_KEY" \
  -H 'Content-Type: application/json' \
  -d '{"avatarId": "5b0f6c1e-8f4e-4c36-9d4a-2f1e7a0b9c11", "audioUrl": "https://media.example.com/audio/welcome.mp3",
       "requestId": "4c1f0e9a-2d7b-4a53-9e86-0b5d3c7f1a22", "video": {"width": 1280, "height": 720}}'
# {"jobId": "…", "status": "queued", "createdAt": "…"}: poll GET /v1/open/video-jobs/<jobId> every 15 s
