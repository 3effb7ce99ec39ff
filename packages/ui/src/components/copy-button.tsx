import { useState } from 'preact/hooks';

/**
 * Copies `value` to the clipboard and says so (announced). The value itself is never put in the
 * button's name, so a screen reader does not read a secret aloud.
 */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <button
        type="button"
        class="secondary"
        onClick={async () => {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        }}
      >
        {label}
      </button>
      <output class="hint" aria-live="polite">
        {copied ? 'Copied' : ''}
      </output>
    </>
  );
}
