/**
 * The applied faults of a permalink (`fx=`, issue 8): one short item per fault, behind a layout
 * version of their own (`1:tp3,c5`). Decoding goes through `FaultsSchema`; a list this page does
 * not read is refused whole (the caller falls back to no faults with a notice).
 *
 * Pure: no DOM; web-standard APIs through `web.ts`.
 */
import { faultDef, FAULT_KINDS, type FaultKind, type FaultSpec } from '../faults/registry.ts';
import { FAULTS_VERSION, FaultsSchema } from './schema.ts';

/**
 * The `fx` value: a layout version, then one item per fault, comma-separated: the fault's code
 * letter (`FaultDef.code`) and its target — `t<pair key>` timeout, `r<pair key>` tool raised,
 * `c<message index>` cancel (`.<base64url of UTF-8>` appended when it carries its own user text),
 * `y<message index>` retry, `n<count>` trailing truncation, `d<message index>` drop.
 * Example: `1:tp3,c5`.
 * @param faults in-schema faults (model/faults.ts `FaultSpec`)
 * @returns the value, or null for no faults (the key is then left out)
 */
export function encodeFaults(faults: readonly FaultSpec[]): string | null {
  if (faults.length === 0) return null;
  const items = faults.map((f) => {
    const def = faultDef(f.kind);
    return `${def.code}${def.encode ? def.encode(f) : targetOf(f)}`;
  });
  return `${FAULTS_VERSION}:${items.join(',')}`;
}

/** A spec's target as a link item writes it: its pair key, message index or count. */
function targetOf(f: FaultSpec): string {
  if ('pairKey' in f) return f.pairKey;
  if ('messageIndex' in f) return String(f.messageIndex);
  return 'count' in f ? String(f.count) : '';
}

const BY_CODE = new Map(FAULT_KINDS.map((k) => [faultDef(k).code, k]));

/** The default reading of an item's target, by the fault's kind of target. */
function readTarget(kind: FaultKind, rest: string): unknown {
  const target = faultDef(kind).target;
  if (target === 'pair') return /^p\d{1,8}$/.test(rest) ? { kind, pairKey: rest } : null;
  if (!/^\d{1,8}$/.test(rest)) return null;
  return target === 'count' ? { kind, count: Number(rest) } : { kind, messageIndex: Number(rest) };
}

/**
 * Read an `fx` value.
 * @returns the faults (schema-checked: `FaultsSchema`), or null when the value is not a fault
 *   list this page reads (the caller falls back to no faults with a notice). Never throws.
 */
export function decodeFaults(value: string): FaultSpec[] | null {
  const m = /^(\d{1,4}):(.*)$/s.exec(value);
  if (!m || Number(m[1]) !== FAULTS_VERSION || !m[2]) return null;
  const out: unknown[] = [];
  for (const item of m[2].split(',')) {
    const kind = BY_CODE.get(item.slice(0, 1));
    if (!kind) return null;
    const def = faultDef(kind);
    const f = def.decode ? def.decode(item.slice(1)) : readTarget(kind, item.slice(1));
    if (f === null) return null;
    out.push(f);
  }
  const r = FaultsSchema.safeParse(out);
  return r.success ? (r.data as FaultSpec[]) : null;
}
