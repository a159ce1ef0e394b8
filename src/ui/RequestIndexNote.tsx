/**
 * The mapping shown next to a provider's error text whose path names its own request index
 * (`messages.9969`): that index counts the request the provider received, after the format's
 * conversion, so it is not a row number; this says which row it is (`messageLabels.ts`).
 */
import { requestIndexNote } from '../model/messageLabels.ts';

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
  return (
    <p className="request-index" data-testid="request-index">
      <b>{note}</b> (the provider numbers the messages of the request it receives, from 0, with
      consecutive same-role records as one message; a row number counts the messages as read)
    </p>
  );
}
