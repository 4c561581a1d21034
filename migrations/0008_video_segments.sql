-- The runs of split renders (workers/pipeline/jobs/segments.ts): one row per segment and one for the join;
-- a video job records its segment count.
CREATE TABLE `video_segments` (
	`job_id` text NOT NULL,
	`idx` integer NOT NULL,
	`status` text NOT NULL,
	`attempt` integer DEFAULT 0 NOT NULL,
	`enqueued_at` integer,
	`heartbeat_at` integer,
	`start_frame` integer,
	`end_frame` integer,
	`frames` integer,
	PRIMARY KEY(`job_id`, `idx`)
);
--> statement-breakpoint
CREATE INDEX `video_segments_status` ON `video_segments` (`status`,`heartbeat_at`);--> statement-breakpoint
ALTER TABLE `video_jobs` ADD `segments` integer;