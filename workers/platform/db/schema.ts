import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Timestamps are epoch milliseconds; the API renders them as ISO 8601 UTC.
const timestamp = (name: string) => integer(name, { mode: "timestamp_ms" });
const flag = (name: string) => integer(name, { mode: "boolean" }).notNull().default(false);

/**
 * An account's limits of one kind of creation, as stored (ceilings, validation, defaults: accounts/limits.ts).
 * Type aliases, not interfaces: callers also read the figures as a Record<string, number>.
 */
type CreationLimits = {
  perMinute: number;
  perHour: number;
  perDay: number;
  readsPerSecond: number;
  readBurst: number;
  readsPerMinute: number;
};
export type VideoLimits = CreationLimits;
export type AvatarLimits = CreationLimits & {
  /** Avatar jobs in progress at a time. */
  concurrent: number;
};
/** `video: null` means no explicit video limits: video access cannot be enabled. */
export type AccountLimits = { avatar: AvatarLimits; video: VideoLimits | null };

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  active: integer("active", { mode: "boolean" }).notNull().default(true),
  openApiAccess: flag("open_api_access"),
  avatarCreationEnabled: flag("avatar_creation_enabled"),
  videoAccess: flag("video_access"),
  videoCreationEnabled: flag("video_creation_enabled"),
  /** AccountLimits as JSON; `video` is null until an operator sets explicit video limits. */
  limits: text("limits", { mode: "json" }).notNull().$type<AccountLimits>(),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

export const apps = sqliteTable(
  "apps",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name").notNull(),
    /** SHA-256 (hex) of the API key; the key itself is never stored. */
    keyHash: text("key_hash").notNull(),
    createdAt: timestamp("created_at").notNull(),
    revokedAt: timestamp("revoked_at"),
  },
  (t) => [uniqueIndex("apps_key_hash").on(t.keyHash), index("apps_account").on(t.accountId)],
);

export const avatars = sqliteTable(
  "avatars",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name").notNull(),
    /** "api" or "console": both kinds are listed for the owning account. */
    origin: text("origin").notNull().default("api"),
    /** Public Avatars may be used in videos by any account. */
    isPublic: flag("is_public"),
    portraitKey: text("portrait_key").notNull(),
    rigKey: text("rig_key").notNull(),
    coverKey: text("cover_key").notNull(),
    backgroundKey: text("background_key"),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (t) => [index("avatars_account_created").on(t.accountId, t.createdAt, t.id)],
);

/** Accounts explicitly allowed to use an Avatar they do not own. */
export const avatarGrants = sqliteTable(
  "avatar_grants",
  {
    avatarId: text("avatar_id")
      .notNull()
      .references(() => avatars.id),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
  },
  (t) => [primaryKey({ columns: [t.avatarId, t.accountId] })],
);

/** Who made a job: an App (Open API) or a person signed in to the console. */
export type JobCreator = { appId: string } | { userId: string };

/** Columns shared by both job families: lifecycle, dispatch bookkeeping and failure detail. */
const jobColumns = () => ({
  id: text("id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id),
  /** The App that created the job (video access is re-checked against it before rendering); null when a person made it in the console. */
  appId: text("app_id"),
  /** The console person who made the job; null for Open API jobs (migration 0004). */
  userId: text("user_id"),
  name: text("name").notNull(),
  status: text("status", { enum: ["queued", "processing", "succeeded", "failed", "expired"] }).notNull(),
  errorCode: text("error_code"),
  errorMessage: text("error_message"),
  errorRetryable: integer("error_retryable", { mode: "boolean" }),
  /** Avatar jobs: a code of @avatar-video/contract's AVATAR_REASONS (migration 0002). */
  errorReason: text("error_reason"),
  /** One sentence for the client with the measured value and the rule (migration 0002). */
  errorDetail: text("error_detail"),
  /** Renderer run counter; events from an older attempt are ignored. */
  attempt: integer("attempt").notNull().default(0),
  /** Last time the job was sent to the queue (null: not yet sent, the sweep re-sends it). */
  enqueuedAt: timestamp("enqueued_at"),
  /** Last sign of life from the renderer while processing. */
  heartbeatAt: timestamp("heartbeat_at"),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
  completedAt: timestamp("completed_at"),
});

export const avatarJobs = sqliteTable(
  "avatar_jobs",
  {
    ...jobColumns(),
    imageUrl: text("image_url").notNull(),
    avatarId: text("avatar_id"),
    /** Avatar Creation unit: reserved on acceptance, then captured or released exactly once. */
    unitState: text("unit_state", { enum: ["reserved", "captured", "released"] })
      .notNull()
      .default("reserved"),
  },
  (t) => [
    index("avatar_jobs_account_created").on(t.accountId, t.createdAt, t.id),
    index("avatar_jobs_status").on(t.status),
  ],
);

export const videoJobs = sqliteTable(
  "video_jobs",
  {
    ...jobColumns(),
    avatarId: text("avatar_id").notNull(),
    /** Caller's retry key, unique per account. */
    requestId: text("request_id"),
    /** SHA-256 of the normalized input, compared on retries. */
    fingerprint: text("fingerprint").notNull(),
    audioUrl: text("audio_url").notNull(),
    backgroundUrl: text("background_url"),
    /** Normalized VideoSettings (every default filled in). */
    settings: text("settings", { mode: "json" }).notNull().$type<import("@avatar-video/contract").VideoSettings>(),
    stage: text("stage").notNull().default("queued"),
    outputKey: text("output_key"),
    expiresAt: timestamp("expires_at").notNull(),
    /** A split render's segment count, set by its planning run (null: rendered whole; migration 0008). */
    segments: integer("segments"),
  },
  (t) => [
    uniqueIndex("video_jobs_request").on(t.accountId, t.requestId).where(sql`request_id is not null`),
    index("video_jobs_account_created").on(t.accountId, t.createdAt, t.id),
    index("video_jobs_status").on(t.status),
    // The sweep's retention scan: succeeded (and unresolved) jobs whose expiresAt has passed.
    index("video_jobs_status_expires").on(t.status, t.expiresAt),
  ],
);

/**
 * Multipart uploads a job run started and has not completed or abandoned (pipeline/internal/multipart.ts).
 * R2 cannot list them from a Worker: the sweep aborts those whose run is no longer current
 * (pipeline/jobs/run-uploads.ts), so a fenced or failed run leaves no parts behind.
 */
export const jobUploads = sqliteTable(
  "job_uploads",
  {
    /** R2's upload id. */
    uploadId: text("upload_id").primaryKey(),
    kind: text("kind", { enum: ["avatar", "video"] }).notNull(),
    jobId: text("job_id").notNull(),
    attempt: integer("attempt").notNull(),
    key: text("key").notNull(),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [index("job_uploads_job").on(t.jobId)],
);

/**
 * The runs of a split render (docs/pipeline.md "Split renders"): segments 0…n−1 (n = video_jobs.segments), each
 * rendering its frames on an instance of its own, and the join (idx = n), `pending` until every segment is
 * `done`. Each row has its own attempt and heartbeat, as a job row has for a whole render; the rows are
 * deleted when the job ends.
 */
export const videoSegments = sqliteTable(
  "video_segments",
  {
    jobId: text("job_id").notNull(),
    idx: integer("idx").notNull(),
    status: text("status", { enum: ["pending", "queued", "processing", "done"] }).notNull(),
    attempt: integer("attempt").notNull().default(0),
    enqueuedAt: timestamp("enqueued_at"),
    heartbeatAt: timestamp("heartbeat_at"),
    /** A done segment's frames [start_frame, end_frame) of the timeline's `frames`, as its run reported them. */
    startFrame: integer("start_frame"),
    endFrame: integer("end_frame"),
    frames: integer("frames"),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.idx] }), index("video_segments_status").on(t.status, t.heartbeatAt)],
);

// ---- Web console (docs/console.md) ----------------------------------------------------------------------

export const PERSON_ROLES = ["owner", "member"] as const;
export type PersonRole = (typeof PERSON_ROLES)[number];

/** A person of an account who signs in to the web console. One account per email. */
export const consoleUsers = sqliteTable(
  "console_users",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    /** Lowercased, trimmed. */
    email: text("email").notNull(),
    /** `pbkdf2-sha256$<iterations>$<salt b64url>$<hash b64url>`; null until the invite is accepted. */
    passwordHash: text("password_hash"),
    /** `owner` manages Apps, keys, people and invites; `member` works with Avatars, videos and usage (migration 0006). */
    role: text("role", { enum: PERSON_ROLES }).notNull().default("member"),
    createdAt: timestamp("created_at").notNull(),
    passwordChangedAt: timestamp("password_changed_at"),
  },
  (t) => [uniqueIndex("console_users_email").on(t.email), index("console_users_account").on(t.accountId)],
);

/** Console sign-in sessions; only the SHA-256 of the cookie value is stored. */
export const consoleSessions = sqliteTable(
  "console_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => consoleUsers.id),
    createdAt: timestamp("created_at").notNull(),
    lastSeenAt: timestamp("last_seen_at").notNull(),
    /** Absolute end (createdAt + 7 days); the idle end is lastSeenAt + 12 h. */
    expiresAt: timestamp("expires_at").notNull(),
  },
  (t) => [index("console_sessions_user").on(t.userId)],
);

/** One-time invite links (24 h); only the SHA-256 of the token is stored. */
export const consoleInvites = sqliteTable(
  "console_invites",
  {
    tokenHash: text("token_hash").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    email: text("email").notNull(),
    /** The role the invite gives; null: the account's first person becomes owner, a new one member, an existing one keeps theirs. */
    role: text("role", { enum: PERSON_ROLES }),
    createdAt: timestamp("created_at").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    usedAt: timestamp("used_at"),
  },
  (t) => [index("console_invites_email").on(t.email)],
);

/** Files people upload in the console (portraits, audio), stored in R2 and handed to jobs by signed URL. */
export const consoleUploads = sqliteTable(
  "console_uploads",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    /** "background": an Avatar background replaced in the console, kept until no render may read it (console/upload-retention.ts). */
    kind: text("kind", { enum: ["portrait", "audio", "background"] }).notNull(),
    key: text("key").notNull(),
    contentType: text("content_type").notNull(),
    /** Declared total size in bytes (checked against the parts received). */
    size: integer("size").notNull(),
    partSize: integer("part_size").notNull(),
    /** R2 multipart upload id while parts are being received. */
    multipartId: text("multipart_id"),
    completedAt: timestamp("completed_at"),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [index("console_uploads_account").on(t.accountId, t.createdAt)],
);

/**
 * Every admin write (api/admin/audit-trail.ts): who (the Access identity, else "admin token"), what (method
 * and route), when, and the state before and after. Never a secret: API keys, invite tokens and passwords are
 * left out by the routes that make them (migration 0007).
 */
export const adminAudit = sqliteTable(
  "admin_audit",
  {
    id: text("id").primaryKey(),
    at: timestamp("at").notNull(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    accountId: text("account_id"),
    target: text("target"),
    before: text("before", { mode: "json" }),
    after: text("after", { mode: "json" }),
    requestId: text("request_id"),
  },
  (t) => [index("admin_audit_at").on(t.at), index("admin_audit_account_at").on(t.accountId, t.at)],
);

export type Account = typeof accounts.$inferSelect;
export type App = typeof apps.$inferSelect;
export type Avatar = typeof avatars.$inferSelect;
export type AvatarJob = typeof avatarJobs.$inferSelect;
export type VideoJob = typeof videoJobs.$inferSelect;
export type VideoSegment = typeof videoSegments.$inferSelect;
export type ConsoleUser = typeof consoleUsers.$inferSelect;
export type ConsoleUpload = typeof consoleUploads.$inferSelect;
export type AdminAuditEntry = typeof adminAudit.$inferSelect;
