-- Multipart uploads of job runs, recorded until completed or abandoned, so the sweep can abort those of
-- fenced and ended runs (workers/pipeline/jobs/run-uploads.ts).
CREATE TABLE `job_uploads` (
	`upload_id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`job_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`key` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `job_uploads_job` ON `job_uploads` (`job_id`);