/**
 * The mapping shown next to a provider's error text whose path names its own request index
 * (`messages.9969`): that index counts the request the provider received, after the format's
 * conversion, so it is not a row number; this says which row (or rows) it is and how the provider
 * counts (`requestRows.ts`).
 */
import { requestIndexText, type RequestRows } from '../model/requestRows.ts';

export function RequestIndexNote({
  providerPath,
  rowLabel,
  request = null,
}: {
  /** `Violation.providerPath` (`messages.3.content.0`), or null. */
  providerPath: string | null;
  /** The cause's row label (`#3`, `#3.2`), or null when no row holds it. */
  rowLabel: string | null;
  /**
   * How the request is made of rows (`selectRequestRows`), when the rows shown are that request;
   * without it the note says only what the numbers show.
   */
  request?: RequestRows | null;
}) {
  const text = requestIndexText(providerPath, rowLabel, request);
  if (text === null) return null;
  return (
    <p className="request-index" data-testid="request-index">
      <b>{text.note}</b> {text.explain}
    </p>
  );
}
