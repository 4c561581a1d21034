import type { Flash } from "./pages/layout";

/** Notices after a redirect are chosen by a fixed key: nothing from the URL is ever echoed into a page. */
const NOTICES: Record<string, string> = {
  welcome: "Your password is set. Welcome!",
  "avatar-created": "Photo accepted: the Avatar job is queued. Its status updates below.",
  "background-saved": "Background saved. New videos of this Avatar use it by default.",
  "background-removed": "Background removed.",
  "video-created": "Video job created. Its stage updates below.",
  "app-disabled": "App disabled: its key no longer works.",
  "password-changed": "Password changed. Your other sessions were signed out.",
  "person-removed": "Person removed: they were signed out and can no longer sign in.",
  "invite-revoked": "Invite revoked: its link no longer works.",
};

export function noticeFrom(key: string | undefined): Flash | null {
  const text = key ? NOTICES[key] : undefined;
  return text ? { kind: "notice", text } : null;
}

export const errorFlash = (text: string): Flash => ({ kind: "error", text });

/** Form fields as strings (a file or a missing field reads as ""). */
export const field = (body: Record<string, unknown>, name: string) =>
  typeof body[name] === "string" ? (body[name] as string) : "";
