import { useState } from 'preact/hooks';

/**
 * A destructive action asked twice, in place (no browser dialog): the first press shows what will
 * happen and a button that does it.
 */
export function ConfirmButton(p: {
  label: string;
  /** What pressing the second button does, as a question. */
  question: string;
  confirmLabel: string;
  onConfirm(): void;
  disabled?: boolean;
}) {
  const [isAsking, setAsking] = useState(false);
  if (!isAsking) {
    return (
      <button type="button" class="danger" disabled={p.disabled} onClick={() => setAsking(true)}>
        {p.label}
      </button>
    );
  }
  return (
    <fieldset class="confirm">
      <legend>{p.question}</legend>
      <button
        type="button"
        class="danger"
        onClick={() => {
          setAsking(false);
          p.onConfirm();
        }}
      >
        {p.confirmLabel}
      </button>
      <button type="button" class="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </fieldset>
  );
}
