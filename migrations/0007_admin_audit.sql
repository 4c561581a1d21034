CREATE TABLE `admin_audit` (
	`id` text PRIMARY KEY NOT NULL,
	`at` integer NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`account_id` text,
	`target` text,
	`before` text,
	`after` text,
	`request_id` text
);
--> statement-breakpoint
CREATE INDEX `admin_audit_at` ON `admin_audit` (`at`);--> statement-breakpoint
CREATE INDEX `admin_audit_account_at` ON `admin_audit` (`account_id`,`at`);