import './schema-form.css';
import { useState } from 'preact/hooks';
import { ErrorMessage } from '../../components/error-message.js';
import { CheckboxField, Field, SelectField, TextAreaField } from '../../components/field.js';
import { useAction } from '../../hooks/use-action.js';
import { apiValueOf, type SchemaField, textOf } from './schema-fields.js';

/**
 * A form made from a path's fields (the server's OpenAPI): each field under its API name with the
 * server's description as its help. Only what changed from `current` (what a read answered) is
 * sent, so a default read back is not pinned; a write-only secret is sent only when typed, and never
 * filled in. The server's refusal is shown in place.
 */
export function SchemaForm(p: {
  fields: readonly SchemaField[];
  current?: Record<string, unknown>;
  submitLabel: string;
  onSubmit(body: Record<string, unknown>): Promise<void>;
  /** Said after a save that went through. */
  savedText: string;
  /** Whether the token may write: without it the fields are shown disabled and nothing is sent. */
  canSave: boolean;
}) {
  const first = (f: SchemaField) =>
    f.kind === 'boolean' ? String(p.current?.[f.name] === true) : textOf(f, p.current?.[f.name]);
  // What the server holds as far as the form knows: what was read, then what was saved.
  const [baseline, setBaseline] = useState<ReadonlyMap<string, string>>(
    () => new Map(p.fields.map((f) => [f.name, first(f)])),
  );
  const [texts, setTexts] = useState(baseline);
  const [isSaved, setSaved] = useState(false);
  const initial = (f: SchemaField) => baseline.get(f.name) ?? '';
  const set = (name: string, text: string) => {
    setSaved(false);
    setTexts(new Map(texts).set(name, text));
  };
  const save = useAction(async () => {
    setSaved(false);
    const body: Record<string, unknown> = {};
    for (const f of p.fields) {
      const text = texts.get(f.name) ?? '';
      if (f.isWriteOnly ? text === '' : text === initial(f)) continue;
      const value = apiValueOf(f, text);
      if (value !== undefined) body[f.name] = value;
    }
    await p.onSubmit(body);
    const written = new Map(texts);
    for (const f of p.fields) if (f.isWriteOnly) written.set(f.name, '');
    setBaseline(written);
    setTexts(written);
    setSaved(true);
  });
  const main = p.fields.filter((f) => !f.isTokenField);
  const tokens = p.fields.filter((f) => f.isTokenField);
  const control = (f: SchemaField) => (
    <SchemaControl key={f.name} field={f} text={texts.get(f.name) ?? ''} onInput={(t) => set(f.name, t)} />
  );
  return (
    <form
      class="form schema-form"
      onSubmit={(e) => {
        e.preventDefault();
        save.run();
      }}
    >
      {!p.canSave && <p>This token may read these settings but not change them.</p>}
      <fieldset class="schema-fields" disabled={!p.canSave}>
        {main.map(control)}
        {tokens.length > 0 && (
          <fieldset>
            <legend>Tokens issued at sign-in</legend>
            {tokens.map(control)}
          </fieldset>
        )}
      </fieldset>
      <ErrorMessage error={save.error} />
      {isSaved && <output>{p.savedText}</output>}
      {p.canSave && (
        <div class="actions">
          <button type="submit" disabled={save.isPending}>
            {p.submitLabel}
          </button>
        </div>
      )}
    </form>
  );
}

function SchemaControl({ field: f, text, onInput }: { field: SchemaField; text: string; onInput(text: string): void }) {
  const hint = [f.description, hintOf(f)].filter(Boolean).join(' ');
  if (f.kind === 'boolean') {
    return (
      <CheckboxField label={f.name} checked={text === 'true'} onChange={(on) => onInput(String(on))} hint={hint} />
    );
  }
  if (f.values.length > 0) {
    const options = [['', '(default)'] as const, ...f.values.map((v) => [v, v] as const)];
    return <SelectField label={f.name} value={text} options={options} onChange={onInput} hint={hint} />;
  }
  if (f.isMultiline && !f.isWriteOnly) {
    return (
      <TextAreaField label={f.name} value={text} onInput={onInput} rows={f.kind === 'object' ? 4 : 6} hint={hint} />
    );
  }
  return (
    <Field
      label={f.name}
      value={text}
      onInput={onInput}
      type={f.isWriteOnly ? 'password' : 'text'}
      autoComplete={f.isWriteOnly ? 'new-password' : undefined}
      hint={hint}
      isCode
    />
  );
}

function hintOf(f: SchemaField): string {
  if (f.isWriteOnly) return 'Write-only: never shown; left empty, the stored one is kept.';
  if (f.kind === 'array') return 'Comma-separated.';
  if (f.kind === 'object') return 'A JSON object.';
  return '';
}
