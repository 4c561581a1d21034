curl -s "$AVATAR_VIDEO_BASE_URL/v1/open/avatar-jobs?statuses=succeeded&pagination.pageSize=20" \
  -H "X-App-ID: $AVATAR_VIDEO_APP_ID" \
  -H "X-API-Key: $AVATAR_VIDEO_API_KEY"
