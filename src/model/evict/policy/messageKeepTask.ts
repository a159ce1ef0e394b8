/**
 * `message-keep-task`: as `message`, but the first message (the task) is always kept — what
 * trims that "keep the first user message" do.
 */
import type { EvictionPolicy } from '../types.ts';
import { messageCuts, messageUnits } from './message.ts';

export const messageKeepTaskPolicy: EvictionPolicy = {
  help: 'keep the first message (the task), drop from the next one on',
  options: [],
  keepsTask: true,
  summarises: false,
  monotone: true,
  cuts: messageCuts,
  units: messageUnits,
};
