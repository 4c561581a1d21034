/**
 * The renderer pool's storage interface (workers/pipeline/renderer/pool-schema.ts) over Node's own SQLite, so
 * the bench and its tests run the pool module and its statements exactly as the Durable Object does.
 * Counts statements, as the object's storage meter would (its rows read and written are counted in workerd,
 * test/worker/pipeline/renderer-pool.test.ts).
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { PoolSql, SqlRow, SqlValue } from "../../../workers/pipeline/renderer/pool-schema";

export interface NodePoolSql extends PoolSql {
  /** Statements run so far. */
  statements: number;
  /** Every distinct statement text run so far (for query-plan checks). */
  readonly queries: Set<string>;
  close(): void;
}

/** `path`: a file keeps the pool across close and reopen (a restart); ":memory:" for the bench. */
export function nodePoolSql(path = ":memory:"): NodePoolSql {
  const db = new DatabaseSync(path);
  const prepared = new Map<string, StatementSync>();
  const sql: NodePoolSql = {
    statements: 0,
    queries: new Set(),
    exec(query: string, ...params: SqlValue[]): SqlRow[] {
      let statement = prepared.get(query);
      if (!statement) {
        statement = db.prepare(query);
        prepared.set(query, statement);
        sql.queries.add(query);
      }
      sql.statements++;
      return statement.all(...params) as SqlRow[];
    },
    close: () => db.close(),
  };
  return sql;
}
