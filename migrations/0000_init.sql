CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`open_api_access` integer DEFAULT false NOT NULL,
	`avatar_creation_enabled` integer DEFAULT false NOT NULL,
	`video_access` integer DEFAULT false NOT NULL,
	`video_creation_enabled` integer DEFAULT false NOT NULL,
	`limits` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `apps` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `apps_key_hash` ON `apps` (`key_hash`);--> statement-breakpoint
CREATE INDEX `apps_account` ON `apps` (`account_id`);--> statement-breakpoint
CREATE TABLE `avatar_grants` (
	`avatar_id` text NOT NULL,
	`account_id` text NOT NULL,
	PRIMARY KEY(`avatar_id`, `account_id`),
	FOREIGN KEY (`avatar_id`) REFERENCES `avatars`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `avatar_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`app_id` text NOT NULL,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`error_code` text,
	`error_message` text,
	`error_retryable` integer,
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
CREATE INDEX `avatar_jobs_account_created` ON `avatar_jobs` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `avatar_jobs_status` ON `avatar_jobs` (`status`);--> statement-breakpoint
CREATE TABLE `avatars` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`origin` text DEFAULT 'api' NOT NULL,
	`is_public` integer DEFAULT false NOT NULL,
	`portrait_key` text NOT NULL,
	`rig_key` text NOT NULL,
	`cover_key` text NOT NULL,
	`background_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `avatars_account_created` ON `avatars` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `video_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`app_id` text NOT NULL,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`error_code` text,
	`error_message` text,
	`error_retryable` integer,
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
CREATE UNIQUE INDEX `video_jobs_request` ON `video_jobs` (`account_id`,`request_id`) WHERE request_id is not null;--> statement-breakpoint
CREATE INDEX `video_jobs_account_created` ON `video_jobs` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `video_jobs_status` ON `video_jobs` (`status`);