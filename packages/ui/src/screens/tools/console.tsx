import './console.css';
import { useRef, useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { messagesOf } from '../../components/error-message.js';
import { Page } from '../../components/page.js';
import { CONSOLE_HELP, parseCommand, runCommand } from './console-command.js';

interface Entry {
  id: number;
  command: string;
  output: string;
  isError: boolean;
}

/**
 * The web console: `read`, `write`, `list` and `delete` lines against the API, as the established
 * UI's REPL takes them. Up and down arrows walk the history of this page's commands.
 */
export function ConsoleTool() {
  const { api } = useApp();
  const [line, setLine] = useState('');
  const [entries, setEntries] = useState<Entry[]>([{ id: 0, command: '', output: CONSOLE_HELP, isError: false }]);
  const [isBusy, setBusy] = useState(false);
  const history = useRef<string[]>([]);
  const cursor = useRef(0);
  const nextId = useRef(1);

  const submit = async () => {
    const command = line.trim();
    if (!command || isBusy) return;
    history.current.push(command);
    cursor.current = history.current.length;
    setLine('');
    setBusy(true);
    let entry: Omit<Entry, 'id'>;
    try {
      const cmd = parseCommand(command);
      const output = await runCommand(api, cmd);
      if (cmd.verb === 'clear') {
        setEntries([]);
        return;
      }
      entry = { command, output, isError: false };
    } catch (err) {
      entry = { command, output: messagesOf(err).join('\n'), isError: true };
    } finally {
      setBusy(false);
    }
    setEntries((all) => [...all, { ...entry, id: nextId.current++ }]);
  };

  const walkHistory = (step: -1 | 1) => {
    const next = Math.min(history.current.length, Math.max(0, cursor.current + step));
    cursor.current = next;
    setLine(history.current[next] ?? '');
  };

  return (
    <Page title="Console" crumbs={[{ label: 'Tools', to: '/tools' }]}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the log scrolls, so the keyboard must reach it */}
      <div class="console-log" role="log" aria-label="Console output" tabIndex={0}>
        {entries.map((e) => (
          <div key={e.id} class={e.isError ? 'console-entry error-text' : 'console-entry'}>
            {e.command && <pre class="code console-command">{`> ${e.command}`}</pre>}
            {e.output && <pre class="code">{e.output}</pre>}
          </div>
        ))}
      </div>
      <form
        class="console-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label for="console-input">Command</label>
        <input
          id="console-input"
          class="code"
          value={line}
          autoComplete="off"
          spellcheck={false}
          onInput={(e) => setLine(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowUp') {
              e.preventDefault();
              walkHistory(-1);
            } else if (e.key === 'ArrowDown') {
              e.preventDefault();
              walkHistory(1);
            }
          }}
        />
        <button type="submit" disabled={isBusy}>
          Run
        </button>
      </form>
    </Page>
  );
}
