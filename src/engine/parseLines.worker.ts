/// <reference lib="webworker" />
/**
 * Module worker: parses one whole-line part of a large JSON Lines file for the inspect worker
 * (lineParts.ts, issue 38), its records slimmed for the preview's format, and answers them.
 */
import { parserFor } from '../model/parse/registry.ts';
import type { PartAnswer, PartRequest } from './lineParts.ts';
import { parsePart } from './stream.ts';

self.onmessage = async (ev: MessageEvent<PartRequest>) => {
  const { id, part, slimFormat } = ev.data;
  let answer: PartAnswer | null;
  try {
    const slim = slimFormat ? (parserFor(slimFormat)?.slimLine ?? null) : null;
    answer = await parsePart(part.stream(), slim);
  } catch {
    answer = null;
  }
  self.postMessage({ id, answer });
};
