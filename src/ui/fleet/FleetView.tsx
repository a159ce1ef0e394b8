/**
 * The fleet view (issue 40): a scan's Parquet opened in the page — the rates (sessions that
 * compact × cuts that break), the recurring failure signatures, each policy's share of 400s, and
 * every request in a sortable list. With the scanned folder opened too, a row opens its session
 * in the inspector at its request.
 */
import { useRef } from 'react';
import { POLICY_REGISTRY, type PolicyId } from '../../model/evict/registry.ts';
import { overshootNote, type ScanReport } from '../../model/scan/report.ts';
import { FleetList } from './FleetList.tsx';
import { ScanFolderButton, ScanProgress } from './ScanFolder.tsx';
import { countNoun, fmtInt } from '../format.ts';
import { ruleInWords } from './words.ts';
import { canPickDirectory } from './folder.ts';
import type { Fleet } from './useFleet.ts';
import './fleet.css';

/** A policy's help line (the registry's), for a name this version knows. */
const policyHelp = (id: string) =>
  Object.hasOwn(POLICY_REGISTRY, id) ? POLICY_REGISTRY[id as PolicyId].help : undefined;

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function Summary({ report }: { report: ScanReport }) {
  const { rates } = report;
  return (
    <div className="fleet-summary">
      <p data-testid="fleet-totals">
        <b>{fmtInt(report.files)}</b> {countNoun(report.files, 'file')} ·{' '}
        <b>{fmtInt(report.requests)}</b> {countNoun(report.requests, 'request')} ·{' '}
        <b>{fmtInt(report.unreadable)}</b> unreadable · <b>{report.invalid.count}</b> get a 400 (
        {pct(report.invalid.share)})
      </p>
      <p data-testid="fleet-rates">
        Sessions that compact <b>{pct(rates.compactShare)}</b> × cuts that break{' '}
        <b>{pct(rates.breakShare)}</b> = <b>{pct(rates.sessionShare)}</b> of sessions get a 400.
      </p>
      <div className="fleet-tables">
        <table data-testid="fleet-signatures">
          <caption>Failure signatures (first error)</caption>
          <thead>
            <tr>
              <th scope="col">What breaks</th>
              <th scope="col">Rule</th>
              <th scope="col">Requests</th>
              <th scope="col">e.g.</th>
            </tr>
          </thead>
          <tbody>
            {report.signatures.map((s) => (
              <tr key={`${s.rule} ${s.mechanism}`} data-rule={s.rule}>
                <td>{ruleInWords(s.rule)}</td>
                <td>{s.mechanism}</td>
                <td>{s.count}</td>
                <td className="fleet-examples">{s.examples.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table data-testid="fleet-policies">
          <caption>Policies: cuts that give a 400</caption>
          <thead>
            <tr>
              <th scope="col">Policy</th>
              <th scope="col">400s</th>
              <th scope="col">Mean overshoot</th>
            </tr>
          </thead>
          <tbody>
            {report.policies.map((p) => (
              <tr key={p.policy}>
                <td title={policyHelp(p.policy)}>{p.policy}</td>
                <td>{pct(p.share400)}</td>
                <td>
                  {p.meanOvershoot === null ? '–' : `${p.meanOvershoot.toFixed(2)}×`}
                  {overshootNote(p.meanOvershoot) && (
                    <span className="fleet-note"> ({overshootNote(p.meanOvershoot)})</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function FleetView({ fleet }: { fleet: Fleet }) {
  const folderInput = useRef<HTMLInputElement>(null);
  const { scan, report } = fleet;
  return (
    <main className="fleet" data-testid="fleet-view" aria-label="Fleet scan">
      <div className="fleet-bar">
        <h2>{scan ? `Fleet: ${scan.name}` : 'Fleet'}</h2>
        <ScanFolderButton fleet={fleet} />
        <button
          type="button"
          onClick={() =>
            canPickDirectory() ? void fleet.openDirectory() : folderInput.current?.click()
          }
          data-testid="fleet-open-folder"
        >
          Open the scanned folder…
        </button>
        <input
          ref={folderInput}
          type="file"
          hidden
          multiple
          data-testid="fleet-folder-input"
          {...{ webkitdirectory: '' }}
          onChange={(e) => {
            fleet.addFiles([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
        <span className="fleet-folder" data-testid="fleet-folder">
          {fleet.folderFiles > 0
            ? `${fleet.folderFiles} files of the folder opened: a row opens its session.`
            : 'Open the folder that was scanned (or drop its files) to open a session from a row.'}
        </span>
        <button type="button" onClick={() => fleet.setShown(false)} data-testid="fleet-close">
          Back to the inspector
        </button>
      </div>
      <ScanProgress fleet={fleet} />
      {fleet.notice && (
        <p className="fleet-notice" role="status" data-testid="fleet-notice">
          {fleet.notice}
        </p>
      )}
      {scan && report && (
        <>
          <Summary report={report} />
          <FleetList rows={scan.rows} onOpen={(r) => void fleet.openRow(r)} />
        </>
      )}
    </main>
  );
}
