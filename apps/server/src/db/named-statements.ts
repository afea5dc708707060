import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';

/**
 * How many statement texts one connection keeps prepared. The app's hot statements (the session
 * check, the lists, the detail) are few and come first; a connection that has met this many
 * distinct texts (lists filtered in every combination) sends the rest unnamed, as before.
 */
export const STATEMENTS_PER_CONNECTION = 400;

/**
 * A statement whose best plan depends on its values (a customers list: a stage of 1,758 rows or a
 * filter of 100,000) is planned at each execution with its values: named, PostgreSQL would switch
 * to one generic plan after five runs, and at a million customers such a list took 42–65 ms against
 * 21–35 ms (bench/README.md). The marker keeps the statement unnamed.
 */
const EACH_TIME = '/* planned each time */';
export const planEachTime = (query: SQL): SQL => sql`${sql.raw(EACH_TIME)} ${query}`;

const names = new Map<string, string>();
const nameOf = (text: string): string => {
  let name = names.get(text);
  if (name === undefined) {
    // a bounded memo of text → name: when it is full it starts over (a name is a pure function of the text)
    if (names.size >= 4 * STATEMENTS_PER_CONNECTION) names.clear();
    name = `s${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
  }
  return name;
};

// pg.Client's own query, past its overloads (this class passes whatever it was given); looked up at
// each call, so a wrapper installed on the prototype later (bench/sql-per-request.ts) still sees it
const clientQuery = (client: pg.Client, ...args: unknown[]): unknown =>
  (pg.Client.prototype.query as (...a: unknown[]) => unknown).apply(client, args);

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown; submit?: unknown };

/**
 * A pg client that names each statement by a hash of its text (issue 25), so PostgreSQL parses a
 * statement once per connection and the next executions send only Bind and Execute. drizzle builds
 * the same text for the same query shape with the values as parameters, so a request's statements
 * are parsed once per connection, not once per request. Only parameterised statements are named
 * (a text without parameters may hold several statements, which a prepared statement cannot).
 */
export class NamingClient extends pg.Client {
  private readonly prepared = new Set<string>();

  // biome-ignore lint/suspicious/noExplicitAny: pg's overloads (text, config, Submittable; promise or callback)
  override query(config: any, values?: any, callback?: any): any {
    // Only drizzle's statements (a config object). The job queue's SQL comes as a string and stays
    // unnamed: with its fetch and completion statements named, the sim-line tests on PostgreSQL, which
    // run faster than real time, twice missed a call settled or a leg rung in time in CI.
    const c = (typeof config === 'object' ? config : null) as QueryConfig | null;
    if (c && typeof c.submit !== 'function' && c.name === undefined && typeof c.text === 'string') {
      const params = Array.isArray(values) ? values : c.values;
      if (Array.isArray(params) && params.length > 0 && !c.text.startsWith(EACH_TIME)) {
        const name = nameOf(c.text);
        if (this.prepared.has(name) || this.prepared.size < STATEMENTS_PER_CONNECTION) {
          this.prepared.add(name);
          return clientQuery(this, { ...c, name }, values, callback);
        }
      }
    }
    return clientQuery(this, config, values, callback);
  }
}
