import './output-block.css';
import { useId } from 'preact/hooks';
import { CopyButton } from './copy-button.js';

/** A tool's answer: a labelled `<output>` (found by its label), monospace, selectable, with a Copy button. */
export function OutputBlock({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div class="output-block">
      <label for={id}>{label}</label>
      <output id={id} class="code">
        {value}
      </output>
      <div class="actions">
        <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}
