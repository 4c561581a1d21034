curl -s "$AVATAR_VIDEO_BASE_URL/v1/open/avatars?pagination.pageSize=20" \
  -H "X-App-ID: $AVATAR_VIDEO_APP_ID" \
  -H "X-API-Key: $AVATAR_VIDEO_API_KEY"
# the next page: add &pagination.pageToken=<pagination.nextPageToken> (the same pageSize)
