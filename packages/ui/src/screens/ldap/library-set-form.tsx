import { useState } from 'preact/hooks';
import { ErrorMessage } from '../../components/error-message.js';
import { CheckboxField, Field, TextAreaField } from '../../components/field.js';
import { useAction } from '../../hooks/use-action.js';

/** A library set as `library/:name` reads it. */
export interface LibrarySet {
  service_account_names: string[];
  ttl: number;
  max_ttl: number;
  disable_check_in_enforcement: boolean;
}

/**
 * The fields of a library set (create or edit): accounts one a line (or comma-separated), TTLs,
 * enforcement. `onSave` gets the body to write; its error is shown under the button.
 */
export function LibrarySetForm(p: {
  initial?: LibrarySet;
  submitLabel: string;
  /** Create only: the set's name is asked for. */
  isNew?: boolean;
  onSave(name: string, body: Record<string, unknown>): Promise<void>;
}) {
  const [name, setName] = useState('');
  const [names, setNames] = useState(p.initial?.service_account_names.join('\n') ?? '');
  const [ttl, setTtl] = useState(p.initial ? `${p.initial.ttl}s` : '24h');
  const [maxTtl, setMaxTtl] = useState(p.initial ? `${p.initial.max_ttl}s` : '24h');
  const [isUnenforced, setUnenforced] = useState(p.initial?.disable_check_in_enforcement ?? false);
  const save = useAction(async () => {
    const accounts = names
      .split(/[\n,]/)
      .map((n) => n.trim())
      .filter(Boolean);
    await p.onSave(name.trim(), {
      service_account_names: accounts,
      ttl: ttl.trim(),
      max_ttl: maxTtl.trim(),
      disable_check_in_enforcement: isUnenforced,
    });
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.run();
      }}
    >
      {p.isNew && <Field label="Set name" value={name} onInput={setName} isCode required />}
      <TextAreaField
        label="Service accounts"
        value={names}
        onInput={setNames}
        rows={4}
        hint="Login names of existing directory accounts (found by userattr under userdn), one a line."
      />
      <Field label="TTL" value={ttl} onInput={setTtl} isCode hint="How long a check-out lasts." />
      <Field
        label="Maximum TTL"
        value={maxTtl}
        onInput={setMaxTtl}
        isCode
        hint="Longest a check-out may last with its renewals."
      />
      <CheckboxField
        label="Disable check-in enforcement"
        checked={isUnenforced}
        onChange={setUnenforced}
        hint="Let anyone allowed to check in check in any account, not only its borrower."
      />
      <div class="actions">
        <button type="submit" disabled={save.isPending}>
          {p.submitLabel}
        </button>
      </div>
      <ErrorMessage error={save.error} />
    </form>
  );
}
