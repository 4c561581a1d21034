import type { Child } from "hono/jsx";
import { CsrfField } from "./layout";

/** A column of a RowTable; a `wide` one is left out on a phone. */
export interface Column {
  label: string;
  wide?: boolean;
}

/**
 * The account's Apps, people or invites, one row each with its actions last: on a phone each row is a card
 * (stack-narrow) without the `wide` columns, so the actions stay in view.
 */
export function RowTable(props: { columns: Column[]; rows: Child[][] }) {
  const hide = (column: Column) => (column.wide ? "hide-narrow" : undefined);
  return (
    <div class="table-wrap">
      <table class="stack-narrow">
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th class={hide(column)}>{column.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((cells) => (
            <tr>
              {cells.map((cell, i) => (
                <td class={hide(props.columns[i])}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A row's action: a form of one button that posts the CSRF token (and `email`), after `confirm` if given. */
export function RowAction(props: {
  csrf: string;
  action: string;
  label: string;
  /** The button's accessible name: the action and the row it acts on. */
  name: string;
  kind: "secondary" | "danger";
  confirm?: string;
  email?: string;
}) {
  return (
    <form method="post" action={props.action} data-confirm={props.confirm}>
      <CsrfField token={props.csrf} />
      {props.email === undefined ? null : <input type="hidden" name="email" value={props.email} />}
      <button type="submit" class={props.kind} aria-label={props.name}>
        {props.label}
      </button>
    </form>
  );
}
