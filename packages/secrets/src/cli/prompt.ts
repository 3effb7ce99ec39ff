import { CliError } from './command.js';

/** A terminal-capable input stream (process.stdin when it is a TTY). */
interface TerminalInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const BACKSPACE = new Set(['\u007f', '\b']);

/**
 * Asks for a secret. On a terminal, `label` goes to `prompt` (stderr) and what is typed is not
 * echoed; otherwise one line is read from the stream (so `echo $KEY | ward operator unseal` works).
 */
export async function readSecret(input: TerminalInput, prompt: NodeJS.WritableStream, label: string): Promise<string> {
  if (!input.isTTY || !input.setRawMode) return readLine(input);
  // Echo goes off before the prompt shows: whatever is typed once it is visible stays hidden.
  input.setRawMode(true);
  prompt.write(label);
  input.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      const onData = (chunk: Buffer | string) => {
        for (const c of chunk.toString()) {
          if (c === '\r' || c === '\n') return finish(() => resolve(typed));
          if (c === CTRL_C) return finish(() => reject(new CliError('interrupted', 130)));
          if (c === CTRL_D && typed === '') return finish(() => reject(new CliError('no input', 1)));
          if (BACKSPACE.has(c)) typed = typed.slice(0, -1);
          else typed += c;
        }
      };
      const finish = (settle: () => void) => {
        input.off('data', onData);
        prompt.write('\n');
        settle();
      };
      input.on('data', onData);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
  }
}

/** The first line of a non-terminal input, without its line ending. */
async function readLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += chunk.toString();
    const end = text.indexOf('\n');
    if (end !== -1) return text.slice(0, end).replace(/\r$/, '');
  }
  return text;
}
