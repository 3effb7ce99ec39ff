import { useId } from 'preact/hooks';

interface FieldProps {
  label: string;
  value: string;
  onInput(value: string): void;
  type?: 'text' | 'password' | 'number' | 'url';
  hint?: string;
  required?: boolean;
  autoComplete?: string;
  /** Monospace: tokens, keys, paths. */
  isCode?: boolean;
  inputMode?: 'numeric' | 'text';
}

/** A labelled text input; the hint is the input's description. */
export function Field(p: FieldProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{p.label}</label>
      <input
        id={id}
        // preact's types split <input> by type; every type here takes the same attributes.
        type={(p.type ?? 'text') as 'text'}
        value={p.value}
        required={p.required}
        autoComplete={p.autoComplete ?? 'off'}
        spellcheck={false}
        class={p.isCode ? 'code' : undefined}
        inputMode={p.inputMode}
        aria-describedby={p.hint ? `${id}-hint` : undefined}
        onInput={(e) => p.onInput(e.currentTarget.value)}
      />
      {p.hint && (
        <p id={`${id}-hint`} class="hint">
          {p.hint}
        </p>
      )}
    </div>
  );
}

interface SelectProps {
  label: string;
  value: string;
  options: readonly (readonly [value: string, label: string])[];
  onChange(value: string): void;
  hint?: string;
}

export function SelectField(p: SelectProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{p.label}</label>
      <select
        id={id}
        value={p.value}
        aria-describedby={p.hint ? `${id}-hint` : undefined}
        onChange={(e) => p.onChange(e.currentTarget.value)}
      >
        {p.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      {p.hint && (
        <p id={`${id}-hint`} class="hint">
          {p.hint}
        </p>
      )}
    </div>
  );
}

export function CheckboxField(p: { label: string; checked: boolean; onChange(checked: boolean): void; hint?: string }) {
  const id = useId();
  return (
    <div class="field checkbox">
      <input
        id={id}
        type="checkbox"
        checked={p.checked}
        aria-describedby={p.hint ? `${id}-hint` : undefined}
        onChange={(e) => p.onChange(e.currentTarget.checked)}
      />
      <label for={id}>{p.label}</label>
      {p.hint && (
        <p id={`${id}-hint`} class="hint">
          {p.hint}
        </p>
      )}
    </div>
  );
}

export function TextAreaField(p: {
  label: string;
  value: string;
  onInput(value: string): void;
  rows?: number;
  hint?: string;
  invalid?: boolean;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{p.label}</label>
      <textarea
        id={id}
        class="code"
        rows={p.rows ?? 8}
        value={p.value}
        spellcheck={false}
        aria-invalid={p.invalid}
        aria-describedby={p.hint ? `${id}-hint` : undefined}
        onInput={(e) => p.onInput(e.currentTarget.value)}
      />
      {p.hint && (
        <p id={`${id}-hint`} class="hint">
          {p.hint}
        </p>
      )}
    </div>
  );
}
