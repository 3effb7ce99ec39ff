import { useState } from 'preact/hooks';

/**
 * A stored value, masked until `Reveal` is pressed: the value is not in the page (so not in a
 * screenshot or the accessibility tree) before that. `Copy` puts it on the clipboard either way.
 */
export function MaskedValue({ value, name }: { value: string; name: string }) {
  const [isShown, setShown] = useState(false);
  const [copied, setCopied] = useState('');
  return (
    <div class="value-cell">
      {isShown ? (
        <span class="code">{value}</span>
      ) : (
        <span class="masked" role="img" aria-label={`${name}: hidden value`}>
          ••••••••
        </span>
      )}
      <button type="button" class="secondary" onClick={() => setShown(!isShown)}>
        {isShown ? 'Hide' : 'Reveal'}
      </button>
      <button
        type="button"
        class="secondary"
        onClick={() =>
          navigator.clipboard.writeText(value).then(
            () => setCopied('Copied'),
            () => setCopied('The browser refused to copy'),
          )
        }
      >
        Copy
      </button>
      <output>{copied}</output>
    </div>
  );
}
