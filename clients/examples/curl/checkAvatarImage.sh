curl -s -X POST "$AVATAR_VIDEO_BASE_URL/v1/open/avatar-checks" \
  -H "X-App-ID: $AVATAR_VIDEO_APP_ID" \
  -H "X-API-Key: $AVATAR_VIDEO_API_KEY" \
  -H 'Content-Type: application/json' \
  -d '{"imageUrl": "https://media.example.com/portraits/ada.jpg"}'
# {"acceptable": true, "reason": null, "detail": "…", "face": {…}}: creates nothing
