curl -s "$AVATAR_VIDEO_BASE_URL/v1/open/avatars/5b0f6c1e-8f4e-4c36-9d4a-2f1e7a0b9c11" \
  -H "X-App-ID: $AVATAR_VIDEO_APP_ID" \
  -H "X-API-Key: $AVATAR_VIDEO_API_KEY"
