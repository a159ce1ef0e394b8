/**
 * The mapping shown next to a provider's error text whose path names its own request index
 * (`messages.9969`): that index counts the request the provider received, after the format's
 * conversion, so it is not a row number; this says which row it is (`messageLabels.ts`).
 */
import { requestIndexNote, requestIndexOf } from '../model/messageLabels.ts';

export function RequestIndexNote({
  providerPath,
  rowLabel,
}: {
  /** `Violation.providerPath` (`messages.3.content.0`), or null. */
  providerPath: string | null;
  /** The cause's row label (`#3`, `#3.2`), or null when no row holds it. */
  rowLabel: string | null;
}) {
  const note = requestIndexNote(providerPath, rowLabel);
  if (note === null) return null;
  const same = rowLabel === `#${requestIndexOf(providerPath) ?? ''}`;
  return (
    <p className="request-index" data-testid="request-index">
      <b>{note}</b>{' '}
      {same
        ? '(the provider counts the messages of the request it received, from 0, as the rows do)'
        : '(the provider counts the messages of the request it received, from 0, where consecutive same-role rows are one message; a row number counts the messages as read)'}
    </p>
  );
}
