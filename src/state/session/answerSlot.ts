/**
 * An answer the page asks a worker for, one job at a time (the listing of the file shown, the diff
 * shown, the character diff of the row opened): the answer of the job asked last, adopted only
 * while that job is still the last asked. The session holds one slot per kind (`answerSlot`), so
 * these answers have the same owner as the rest of what is loaded.
 */
import { createStore, type StoreApi } from 'zustand';

/** The answer of the job asked last (`value` null while it is being made). */
export interface Held<J, V> {
  job: J | null;
  value: V | null;
}

/** One kind of answer (see the file comment). */
export class AnswerSlot<J extends object, V> {
  readonly store: StoreApi<Held<J, V>> = createStore<Held<J, V>>()(() => ({
    job: null,
    value: null,
  }));
  private readonly run: (job: J) => Promise<V>;

  /** @param run asks the worker for a job's answer */
  constructor(run: (job: J) => Promise<V>) {
    this.run = run;
  }

  /** Ask for `job` unless it is held or being made; adopted only while it is still the last asked. */
  ensure(job: J | null): void {
    const store = this.store;
    if (store.getState().job === job) return;
    store.setState({ job, value: null });
    if (job === null) return;
    void this.run(job).then((value) => {
      if (store.getState().job === job) store.setState({ job, value });
    });
  }
}

/**
 * A module's handle on the active session's slot of one kind: `store` and `ensure` read the slot
 * when called, so the handle keeps nothing itself.
 */
export interface SlotHandle<J extends object, V> {
  readonly store: StoreApi<Held<J, V>>;
  ensure(job: J | null): void;
}
