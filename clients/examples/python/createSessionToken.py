from avatar_video import AvatarVideo

av = AvatarVideo()  # reads AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY
# One token per live connection; give it to the page, never the key.
token = av.session_tokens.create(ttl=600)
print(token.session_token, token.expire_at)
