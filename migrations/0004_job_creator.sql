-- Who made a job becomes two columns: app_id (an App) or user_id (a console person). Jobs made in the console
-- before carried app_id `console:{userId}`; the copy below moves that id into user_id.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_avatar_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`app_id` text,
	`user_id` text,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`error_code` text,
	`error_message` text,
	`error_retryable` integer,
	`error_reason` text,
	`error_detail` text,
	`attempt` integer DEFAULT 0 NOT NULL,
	`enqueued_at` integer,
	`heartbeat_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`completed_at` integer,
	`image_url` text NOT NULL,
	`avatar_id` text,
	`unit_state` text DEFAULT 'reserved' NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_avatar_jobs`("id", "account_id", "app_id", "user_id", "name", "status", "error_code", "error_message", "error_retryable", "error_reason", "error_detail", "attempt", "enqueued_at", "heartbeat_at", "created_at", "updated_at", "completed_at", "image_url", "avatar_id", "unit_state") SELECT "id", "account_id", CASE WHEN "app_id" LIKE 'console:%' THEN NULL ELSE "app_id" END, CASE WHEN "app_id" LIKE 'console:%' THEN substr("app_id", 9) END, "name", "status", "error_code", "error_message", "error_retryable", "error_reason", "error_detail", "attempt", "enqueued_at", "heartbeat_at", "created_at", "updated_at", "completed_at", "image_url", "avatar_id", "unit_state" FROM `avatar_jobs`;--> statement-breakpoint
DROP TABLE `avatar_jobs`;--> statement-breakpoint
ALTER TABLE `__new_avatar_jobs` RENAME TO `avatar_jobs`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `avatar_jobs_account_created` ON `avatar_jobs` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `avatar_jobs_status` ON `avatar_jobs` (`status`);--> statement-breakpoint
CREATE TABLE `__new_video_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`app_id` text,
	`user_id` text,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`error_code` text,
	`error_message` text,
	`error_retryable` integer,
	`error_reason` text,
	`error_detail` text,
	`attempt` integer DEFAULT 0 NOT NULL,
	`enqueued_at` integer,
	`heartbeat_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`completed_at` integer,
	`avatar_id` text NOT NULL,
	`request_id` text,
	`fingerprint` text NOT NULL,
	`audio_url` text NOT NULL,
	`background_url` text,
	`settings` text NOT NULL,
	`stage` text DEFAULT 'queued' NOT NULL,
	`output_key` text,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_video_jobs`("id", "account_id", "app_id", "user_id", "name", "status", "error_code", "error_message", "error_retryable", "error_reason", "error_detail", "attempt", "enqueued_at", "heartbeat_at", "created_at", "updated_at", "completed_at", "avatar_id", "request_id", "fingerprint", "audio_url", "background_url", "settings", "stage", "output_key", "expires_at") SELECT "id", "account_id", CASE WHEN "app_id" LIKE 'console:%' THEN NULL ELSE "app_id" END, CASE WHEN "app_id" LIKE 'console:%' THEN substr("app_id", 9) END, "name", "status", "error_code", "error_message", "error_retryable", "error_reason", "error_detail", "attempt", "enqueued_at", "heartbeat_at", "created_at", "updated_at", "completed_at", "avatar_id", "request_id", "fingerprint", "audio_url", "background_url", "settings", "stage", "output_key", "expires_at" FROM `video_jobs`;--> statement-breakpoint
DROP TABLE `video_jobs`;--> statement-breakpoint
ALTER TABLE `__new_video_jobs` RENAME TO `video_jobs`;--> statement-breakpoint
CREATE UNIQUE INDEX `video_jobs_request` ON `video_jobs` (`account_id`,`request_id`) WHERE request_id is not null;--> statement-breakpoint
CREATE INDEX `video_jobs_account_created` ON `video_jobs` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `video_jobs_status` ON `video_jobs` (`status`);--> statement-breakpoint
CREATE INDEX `video_jobs_status_expires` ON `video_jobs` (`status`,`expires_at`);