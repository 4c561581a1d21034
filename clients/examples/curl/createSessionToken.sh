# X-API-Key only; the token expires in 10 minutes (at most 24 hours ahead)
curl -s -X POST "$AVATAR_VIDEO_BASE_URL/v1/console/session-tokens" \
  -H "X-API-Key: $AVATAR_VIDEO_API_KEY" \
  -H 'Content-Type: application/json' \
  -d '{"expireAt": '$(($(date +%s) + 600))'}'
