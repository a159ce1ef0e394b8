/**
 * The worker client's side of the sweeps: which token tables the worker sent (by its number for
 * them), which parse and provider it holds eviction parts for (it sweeps only those), the sweeps
 * asked for and not answered yet; the client as the page's `SweepSource`.
 */
import type { TokenTable } from '../model/tokens.ts';
import type { ProviderId } from '../model/types.ts';
import type { SweepRequest, WorkerResponse } from './protocol.ts';
import type { AnswerSink, SweepSource } from './sink.ts';

type SweepAnswer = Extract<WorkerResponse, { kind: 'sweep' }>;

/** Sweep bookkeeping of one worker client. */
export class ClientSweeps {
  /** Token tables the worker sent, by object: its number for them and their parse. */
  private readonly tableSeqs = new WeakMap<TokenTable, { seq: number; parseId: number }>();
  private readonly tablesBySeq = new Map<number, TokenTable>();
  /** The parse and provider whose eviction parts the worker holds (it sweeps only for them). */
  private sweepable: { parseId: number; provider: ProviderId } | null = null;
  /** Sweeps asked for and not answered yet (`seq|options`), so a render asks once. */
  private readonly asked = new Set<string>();
  private readonly sink: AnswerSink;
  private readonly worker: () => Worker | null;
  private readonly broken: () => boolean;

  /**
   * @param sink where arriving sweeps go
   * @param worker the client's worker now (null while none runs)
   * @param broken true once the client answers on the main thread for good
   */
  constructor(sink: AnswerSink, worker: () => Worker | null, broken: () => boolean) {
    this.sink = sink;
    this.worker = worker;
    this.broken = broken;
  }

  /** Note a token table the worker sent for a parse (`seq` absent: it cannot be swept). */
  note(table: TokenTable, seq: number | undefined, parseId: number): void {
    if (seq === undefined) return;
    this.tableSeqs.set(table, { seq, parseId });
    this.tablesBySeq.set(seq, table);
  }

  /** The worker holds eviction parts of this parse and provider: it can sweep their tables. */
  markSweepable(parseId: number, provider: ProviderId): void {
    this.sweepable = { parseId, provider };
  }

  /** Forget every table and pending sweep (a new answer, a failure, a cancel). */
  forget(): void {
    this.sweepable = null;
    this.tablesBySeq.clear();
    this.asked.clear();
    // A sweep the page waits for will not come: selectSweep computes it on the page instead.
    this.sink.sweepsChanged();
  }

  /** A `sweep` answer: hand it to the sink, or let the page sweep when the worker could not. */
  onSweep(msg: SweepAnswer): void {
    const table = this.tablesBySeq.get(msg.tableSeq);
    this.asked.delete(`${msg.tableSeq}|${JSON.stringify(msg.options)}`);
    if (!table) return;
    if (msg.sweeps) this.sink.sweep(table, msg.provider, msg.options, msg.sweeps);
    else {
      // The worker could not sweep: the page sweeps this table itself.
      this.tableSeqs.delete(table);
      this.sink.sweepsChanged();
    }
  }

  /** The client as the page's sweep source. */
  source(): SweepSource {
    return {
      has: (table, provider) => {
        const s = this.tableSeqs.get(table);
        return (
          !this.broken() &&
          s !== undefined &&
          this.sweepable !== null &&
          this.sweepable.parseId === s.parseId &&
          this.sweepable.provider === provider &&
          this.tablesBySeq.get(s.seq) === table
        );
      },
      request: (table, provider, options) => {
        const s = this.tableSeqs.get(table);
        const worker = this.worker();
        if (!worker || !s) return;
        const key = `${s.seq}|${JSON.stringify(options)}`;
        if (this.asked.has(key)) return;
        this.asked.add(key);
        const msg: SweepRequest = {
          kind: 'sweep',
          parseId: s.parseId,
          provider,
          tableSeq: s.seq,
          options,
        };
        worker.postMessage(msg);
      },
    };
  }
}
