/**
 * Test support: a writer of chained JSON Lines, as Claude Code writes its session logs. Each line
 * of the chain carries the session's fields, names the line before it (`parentUuid`), and has its
 * own `uuid` and `timestamp`; side lines (snapshots, progress) sit outside the chain. The test
 * logs of e2e/sessionLog.ts and engine/testing/bigSessionLog.ts are written with it. Only tests
 * import this file.
 */

/** How a log numbers and stamps its lines. */
export interface ChainedLinesOptions {
  /** Fields every chained line starts with (`isSidechain`, `cwd`, `sessionId`, …). */
  base: Readonly<Record<string, unknown>>;
  /** The uuid of the n-th line written (1-based, side lines counted). */
  uuid: (n: number) => string;
  /** The timestamp of the n-th line written (1-based, side lines counted). */
  timestamp: (n: number) => string;
}

/** A log being written. */
export interface ChainedLines {
  /** The lines so far, one JSON object each. */
  readonly lines: string[];
  /**
   * A line of the chain: `base`, `parentUuid`, `uuid`, `timestamp`, then `v`'s fields.
   * @param parent the line it follows (default: the last chained line; null for none)
   * @returns its uuid
   */
  chain(v: Record<string, unknown>, parent?: string | null): string;
  /** A line outside the chain: `v`'s fields and a timestamp (no uuid, no parent). */
  side(v: Record<string, unknown>): void;
  /** A line as given, counted as none (a record the log holds as is). */
  raw(v: unknown): void;
  /** The lines counted so far (chained and side lines; `raw` ones are not). */
  count(): number;
  /** The log's text: one line each, ending with a newline. */
  text(): string;
}

/** A new chained JSON Lines writer (see the file comment). */
export function chainedLines(opts: ChainedLinesOptions): ChainedLines {
  const lines: string[] = [];
  let last: string | null = null;
  let n = 0;
  return {
    lines,
    chain(v, parent = last) {
      n += 1;
      const uuid = opts.uuid(n);
      lines.push(
        JSON.stringify({
          ...opts.base,
          parentUuid: parent,
          uuid,
          timestamp: opts.timestamp(n),
          ...v,
        }),
      );
      last = uuid;
      return uuid;
    },
    side(v) {
      n += 1;
      lines.push(JSON.stringify({ ...v, timestamp: opts.timestamp(n) }));
    },
    raw(v) {
      lines.push(JSON.stringify(v));
    },
    count: () => n,
    text: () => `${lines.join('\n')}\n`,
  };
}

/** `n` as `width` digits, zeros in front (uuids and clock fields of the test logs). */
export function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
