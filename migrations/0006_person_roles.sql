ALTER TABLE `console_invites` ADD `role` text;--> statement-breakpoint
ALTER TABLE `console_users` ADD `role` text DEFAULT 'member' NOT NULL;--> statement-breakpoint
-- People who were there before roles keep what they could do: they all become owners.
UPDATE `console_users` SET `role` = 'owner';
