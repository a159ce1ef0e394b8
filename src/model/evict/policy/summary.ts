/**
 * `summary`: keep the task and replace the oldest exchanges after it with one user message of
 * `summaryTokens` (no tool blocks) — what summarising compactions do.
 */
import type { EvictionPolicy } from '../types.ts';
import { exchangeCuts, exchangeUnits } from './exchange.ts';

export const summaryPolicy: EvictionPolicy = {
  help: 'replace the oldest exchanges after the task with one summary message (no tool blocks)',
  options: ['summaryTokens'],
  keepsTask: true,
  summarises: true,
  monotone: false,
  cuts: exchangeCuts,
  units: exchangeUnits,
};
