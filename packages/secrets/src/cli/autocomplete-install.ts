import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError } from './command.js';

/**
 * `ward -autocomplete-install` / `-autocomplete-uninstall`, as the established CLI: a line in
 * `~/.bashrc` and `~/.zshrc` that loads `ward completion <shell>` from this binary at each start.
 * The line is marked so that uninstall removes exactly it; a second install changes nothing.
 */
const MARK = '# ward completion (ward -autocomplete-install)';

function lineFor(shell: 'bash' | 'zsh', binary: string): string {
  return `eval "$('${binary.replaceAll("'", "'\\''")}' completion ${shell})" ${MARK}`;
}

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/** Adds the line to each shell's start file; returns the files it changed. */
export async function installCompletion(home: string, binary: string): Promise<string[]> {
  const changed: string[] = [];
  for (const [shell, file] of [
    ['bash', '.bashrc'],
    ['zsh', '.zshrc'],
  ] as const) {
    const path = join(home, file);
    const text = await readOrEmpty(path);
    if (text.includes(MARK)) continue;
    await writeFile(path, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${lineFor(shell, binary)}\n`);
    changed.push(path);
  }
  if (changed.length === 0) throw new CliError('completion is already installed', 1);
  return changed;
}

/** Removes the line from each shell's start file; returns the files it changed. */
export async function uninstallCompletion(home: string): Promise<string[]> {
  const changed: string[] = [];
  for (const file of ['.bashrc', '.zshrc']) {
    const path = join(home, file);
    const text = await readOrEmpty(path);
    if (!text.includes(MARK)) continue;
    await writeFile(
      path,
      text
        .split('\n')
        .filter((line) => !line.endsWith(MARK))
        .join('\n'),
    );
    changed.push(path);
  }
  if (changed.length === 0) throw new CliError('completion is not installed', 1);
  return changed;
}
