import { useId } from 'preact/hooks';
import { CheckboxField, TextAreaField } from './field.js';

export interface KvRow {
  key: string;
  value: string;
}

export interface KvEditorState {
  rows: KvRow[];
  /** Edited as JSON text instead of rows. */
  isJson: boolean;
  json: string;
}

export function editorStateOf(data: Record<string, unknown>): KvEditorState {
  const rows = Object.entries(data).map(([key, v]) => ({ key, value: typeof v === 'string' ? v : JSON.stringify(v) }));
  return {
    rows: rows.length > 0 ? rows : [{ key: '', value: '' }],
    isJson: false,
    json: JSON.stringify(data, null, 2),
  };
}

/** The data the editor holds, or the reason it is not valid (shown in place). */
export function editorData(state: KvEditorState): { data: Record<string, unknown> } | { problem: string } {
  if (state.isJson) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(state.json);
    } catch (err) {
      return { problem: `not valid JSON: ${(err as Error).message}` };
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return { problem: 'the JSON must be an object of keys and values' };
    }
    return { data: parsed as Record<string, unknown> };
  }
  const data: Record<string, unknown> = {};
  for (const [i, row] of state.rows.entries()) {
    if (row.key === '' && row.value === '') continue;
    if (row.key === '') return { problem: `entry ${i + 1} has a value but no key` };
    if (Object.hasOwn(data, row.key)) return { problem: `the key "${row.key}" appears twice` };
    data[row.key] = row.value;
  }
  return { data };
}

/** Keys and values as rows (one fieldset each), or the same data as JSON; switching keeps what was typed. */
export function KvEditor(p: { state: KvEditorState; onChange(state: KvEditorState): void; problem?: string }) {
  const { state } = p;
  const setRow = (i: number, row: KvRow) =>
    p.onChange({ ...state, rows: state.rows.map((r, j) => (j === i ? row : r)) });
  const toggleJson = (isJson: boolean) => {
    if (isJson) {
      const current = editorData({ ...state, isJson: false });
      p.onChange({ ...state, isJson, json: 'data' in current ? JSON.stringify(current.data, null, 2) : state.json });
      return;
    }
    const current = editorData(state);
    p.onChange('data' in current ? { ...editorStateOf(current.data), isJson } : { ...state, isJson });
  };
  return (
    <div class="kv-editor">
      <CheckboxField label="Edit as JSON" checked={state.isJson} onChange={toggleJson} />
      {state.isJson ? (
        <TextAreaField
          label="JSON"
          value={state.json}
          rows={10}
          invalid={p.problem !== undefined}
          onInput={(json) => p.onChange({ ...state, json })}
        />
      ) : (
        <>
          {state.rows.map((row, i) => (
            <RowFields
              key={i}
              index={i}
              row={row}
              onChange={(r) => setRow(i, r)}
              onRemove={
                state.rows.length > 1
                  ? () => p.onChange({ ...state, rows: state.rows.filter((_, j) => j !== i) })
                  : undefined
              }
            />
          ))}
          <div>
            <button
              type="button"
              class="secondary"
              onClick={() => p.onChange({ ...state, rows: [...state.rows, { key: '', value: '' }] })}
            >
              Add entry
            </button>
          </div>
        </>
      )}
    </div>
  );
}

function RowFields(p: { index: number; row: KvRow; onChange(row: KvRow): void; onRemove?: () => void }) {
  const id = useId();
  return (
    <fieldset class="kv-row">
      <legend>Entry {p.index + 1}</legend>
      <div class="field">
        <label for={`${id}-key`}>Key</label>
        <input
          id={`${id}-key`}
          class="code"
          value={p.row.key}
          autoComplete="off"
          spellcheck={false}
          onInput={(e) => p.onChange({ ...p.row, key: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for={`${id}-value`}>Value</label>
        <textarea
          id={`${id}-value`}
          class="code"
          rows={1}
          value={p.row.value}
          spellcheck={false}
          onInput={(e) => p.onChange({ ...p.row, value: e.currentTarget.value })}
        />
      </div>
      {p.onRemove && (
        <button type="button" class="secondary" onClick={p.onRemove}>
          Remove entry {p.index + 1}
        </button>
      )}
    </fieldset>
  );
}
