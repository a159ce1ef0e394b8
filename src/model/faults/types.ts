/**
 * What one fault is (issue 8, issue 34): one file per fault in this folder, one entry in
 * `registry.ts`. Each says how it reads (label), how a link carries it (`code` and its target),
 * which targets of a transcript it fits, and how it changes a transcript.
 */
import type { z } from 'zod';
import type { ToolPair } from '../pairing.ts';
import type { Message, Result, Transcript } from '../types.ts';

/** A fault applied, its description still to be worded with the labels of the rows shown. */
export interface Applied {
  transcript: Transcript;
  describe: (label: (m: Message) => string) => string;
}

/** What every fault's `targets` reads, computed once per transcript by `faultTargets`. */
export interface TargetContext {
  pairs: readonly ToolPair[];
  /** Client calls per assistant message position (answered or not), in call order. */
  callsIn: ReadonlyMap<number, number>;
}

/**
 * What a fault acts on: a tool pair (`pairKey`, `p3`), a message position (`messageIndex`), or a
 * count of trailing messages (`count`). It decides the link item's shape (`t` + `p3`, `c` + `5`,
 * `n` + `2`) and the order of the fault menu.
 */
export type FaultTarget = 'pair' | 'message' | 'count';

/** One fault: its spec type `S` is `{ kind, …target }`, checked by `schema`. */
export interface FaultDef<S extends { kind: string }> {
  /** How menus and the CLI name it. */
  label: string;
  /** One letter: the fault's item in a link's `fx` list (`fx=1:tp3,c5`). Unique. */
  code: string;
  target: FaultTarget;
  /** The spec as a link carries it (a zod object with `kind` as a literal). */
  schema: z.ZodType<S>;
  /**
   * The specs of this fault that fit `t` (for menus and property tests), in the transcript's
   * order. Never throws.
   */
  targets: (t: Transcript, ctx: TargetContext) => S[];
  /**
   * Apply to `t`. Never throws: a target that does not fit is an error sentence naming the
   * message by its row label (`rowOf`).
   */
  apply: (t: Transcript, spec: S) => Result<Applied, string>;
  /** The link item after the code letter (`p3`, `5`, `5.<base64url>`); default: the target. */
  encode?: (spec: S) => string;
  /** Read a link item after the code letter; default: the target. Null: not this fault's item. */
  decode?: (rest: string) => unknown;
}
