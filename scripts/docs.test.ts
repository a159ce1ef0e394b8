import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContainerKind } from '../src/model/parse/containers.ts';
import { PARSERS } from '../src/model/parse/registry.ts';

const root = path.resolve(import.meta.dirname, '..');
const formats = readFileSync(path.join(root, 'docs/formats.md'), 'utf8');
const headings = new Set([...formats.matchAll(/^### (\S+)$/gm)].map((m) => m[1]));

/** Every container kind (a Record, so a new kind fails to compile until it is listed). */
const CONTAINERS: Record<ContainerKind, true> = {
  curl: true,
  sse: true,
  har: true,
  litellm: true,
  batch: true,
  otel: true,
};

describe('docs/formats.md', () => {
  it('has a section for every registered format, listed under its category', () => {
    for (const p of PARSERS) {
      expect(headings, p.id).toContain(p.id);
      const row = formats.split('\n').find((l) => l.startsWith(`| \`${p.category}\``)) ?? '';
      const listed = (row.split('|').at(-2) ?? '').split(',').map((f) => f.trim());
      expect(listed, `${p.id} in the ${p.category} row`).toContain(p.id);
    }
  });

  it('has a section for every container', () => {
    for (const kind of Object.keys(CONTAINERS)) expect(headings, kind).toContain(kind);
  });
});
