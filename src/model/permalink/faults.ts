/**
 * The applied faults of a permalink (`fx=`, issue 8): one short item per fault, behind a layout
 * version of their own (`1:tp3,c5`). Decoding goes through `FaultsSchema`; a list this page does
 * not read is refused whole (the caller falls back to no faults with a notice).
 *
 * Pure: no DOM; web-standard APIs through `web.ts`.
 */
import { strToU8 } from 'fflate';
import type { FaultSpec } from '../faults.ts';
import { fromBase64Url, toBase64Url } from './inline.ts';
import { FAULTS_VERSION, FaultsSchema } from './schema.ts';
import { decodeUtf8 } from './web.ts';

/**
 * The `fx` value: a layout version, then one item per fault, comma-separated:
 * `t<pair key>` timeout, `r<pair key>` tool raised, `c<message index>` cancel (`.<base64url of
 * UTF-8>` appended when it carries its own user text), `y<message index>` retry,
 * `n<count>` trailing truncation, `d<message index>` drop. Example: `1:tp3,c5`.
 * @param faults in-schema faults (model/faults.ts `FaultSpec`)
 * @returns the value, or null for no faults (the key is then left out)
 */
export function encodeFaults(faults: readonly FaultSpec[]): string | null {
  if (faults.length === 0) return null;
  const items = faults.map((f) => {
    switch (f.kind) {
      case 'timeout':
        return `t${f.pairKey}`;
      case 'tool_raised':
        return `r${f.pairKey}`;
      case 'cancel':
        return `c${f.messageIndex}${f.userText !== undefined ? `.${toBase64Url(strToU8(f.userText))}` : ''}`;
      case 'retry':
        return `y${f.messageIndex}`;
      case 'truncate':
        return `n${f.count}`;
      case 'drop':
        return `d${f.messageIndex}`;
    }
  });
  return `${FAULTS_VERSION}:${items.join(',')}`;
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
    const pair = /^([tr])(p\d{1,8})$/.exec(item);
    if (pair) {
      out.push({ kind: pair[1] === 't' ? 'timeout' : 'tool_raised', pairKey: pair[2] });
      continue;
    }
    const cancel = /^c(\d{1,8})(?:\.([A-Za-z0-9_-]*))?$/.exec(item);
    if (cancel) {
      const f: Record<string, unknown> = { kind: 'cancel', messageIndex: Number(cancel[1]) };
      if (cancel[2] !== undefined) {
        const bytes = fromBase64Url(cancel[2]);
        const text = bytes ? decodeUtf8(bytes) : null;
        if (text === null) return null;
        f.userText = text;
      }
      out.push(f);
      continue;
    }
    const num = /^([ynd])(\d{1,8})$/.exec(item);
    if (!num) return null;
    const n = Number(num[2]);
    out.push(
      num[1] === 'n'
        ? { kind: 'truncate', count: n }
        : { kind: num[1] === 'y' ? 'retry' : 'drop', messageIndex: n },
    );
  }
  const r = FaultsSchema.safeParse(out);
  return r.success ? (r.data as FaultSpec[]) : null;
}
