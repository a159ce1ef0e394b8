/// <reference lib="webworker" />
/**
 * Module worker: the rows of one dropped file of a fleet (fleetScanProtocol.ts), off the page's
 * thread; the page runs a few of these at once (fleetScanClient.ts).
 */
import {
  answerFleetScanJob,
  type FleetScanAnswer,
  type FleetScanMessage,
} from './fleetScanProtocol.ts';

self.onmessage = (ev: MessageEvent<FleetScanMessage>) => {
  const { id } = ev.data;
  let answer: FleetScanAnswer;
  try {
    answer = { id, ok: true, value: answerFleetScanJob(ev.data) };
  } catch (e) {
    answer = { id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage(answer);
};
