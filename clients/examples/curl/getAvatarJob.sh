curl -s "$AVATAR_VIDEO_BASE_URL/v1/open/avatar-jobs/0d7c5a2e-3b9f-4e61-8a4d-6c2b1f9e8a70" \
  -H "X-App-ID: $AVATAR_VIDEO_APP_ID" \
  -H "X-API-Key: $AVATAR_VIDEO_API_KEY"
# "status": "succeeded" carries "avatarId"; "failed" carries "error": {"code", "message", "retryable", "reason"}
