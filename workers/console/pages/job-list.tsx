import type { Child } from "hono/jsx";

/**
 * A job list of the console: its items' status is polled and changed in place (console.js), announced
 * politely to screen readers, and "Load older" fetches the next page (a plain link without script).
 */
export function JobList(props: { poll: string; label: string; olderHref: string | null; children: Child }) {
  return (
    <>
      <ul class="jobs" data-poll={props.poll} aria-live="polite" aria-label={props.label}>
        {props.children}
      </ul>
      {props.olderHref ? (
        <p>
          <a class="button secondary" href={props.olderHref} data-load-older>
            Load older
          </a>
        </p>
      ) : null}
    </>
  );
}
