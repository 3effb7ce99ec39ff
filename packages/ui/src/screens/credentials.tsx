import { MaskedValue } from '../components/masked-value.js';

/** The fields of a credential that are secrets: masked until Reveal, never put in the URL or storage. */
const SECRET_FIELDS = new Set(['password', 'private_key', 'secret', 'current_password', 'last_password']);

/**
 * An engine's credential answer as facts: names and plain values as text, secret values masked.
 * Values that are objects are shown as JSON. Also a configuration as the server returns it (a managed
 * key's parameters, a snapshot configuration).
 */
export function CredentialFacts({
  data,
  label,
  isSorted = false,
}: {
  data: Record<string, unknown>;
  label: string;
  /** By name (a configuration's parameters), rather than in the server's order. */
  isSorted?: boolean;
}) {
  const entries = Object.entries(data);
  if (isSorted) entries.sort(([a], [b]) => a.localeCompare(b));
  return (
    <dl class="facts" aria-label={label}>
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>
            {SECRET_FIELDS.has(key) && typeof value === 'string' ? (
              <MaskedValue name={key} value={value} />
            ) : (
              <span class="code">{typeof value === 'string' ? value : JSON.stringify(value)}</span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
