-- Why a job failed, told to the client: error.reason (Avatar jobs, a code of @avatar-video/contract's
-- AVATAR_REASONS) and error.detail (both families: one sentence with the measured value and the rule).
-- Hand-written (docs/avatar-image-rules.md). Null on jobs that did not fail, and on failures stored before.
ALTER TABLE `avatar_jobs` ADD `error_reason` text;--> statement-breakpoint
ALTER TABLE `avatar_jobs` ADD `error_detail` text;--> statement-breakpoint
ALTER TABLE `video_jobs` ADD `error_reason` text;--> statement-breakpoint
ALTER TABLE `video_jobs` ADD `error_detail` text;
