import { StreamLanguage, type StringStream } from '@codemirror/language';

interface HclState {
  /** Inside a `/* … *\/` comment. */
  inComment: boolean;
  /** Inside a heredoc: its closing marker. */
  heredoc: string | undefined;
}

/**
 * Enough of HCL for policies and configuration: comments (`#`, `//`, `/* *\/`), strings, heredocs,
 * numbers, booleans, block keywords at the start of a line, attribute names and brackets.
 */
export const hclLanguage = StreamLanguage.define<HclState>({
  name: 'hcl',
  startState: () => ({ inComment: false, heredoc: undefined }),
  token(stream: StringStream, state: HclState) {
    if (state.heredoc !== undefined) {
      if (stream.sol() && stream.match(new RegExp(`^\\s*${state.heredoc}\\s*$`))) {
        state.heredoc = undefined;
        return 'string';
      }
      stream.skipToEnd();
      return 'string';
    }
    if (state.inComment) {
      if (stream.skipTo('*/')) {
        stream.next();
        stream.next();
        state.inComment = false;
      } else stream.skipToEnd();
      return 'comment';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('#') || stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match('/*')) {
      state.inComment = true;
      return 'comment';
    }
    const heredoc = stream.match(/^<<-?([A-Za-z_][\w-]*)/) as RegExpMatchArray | null;
    if (heredoc) {
      state.heredoc = heredoc[1];
      return 'string';
    }
    if (stream.peek() === '"') {
      stream.next();
      let escaped = false;
      for (let ch = stream.next(); ch !== undefined; ch = stream.next()) {
        if (ch === '"' && !escaped) break;
        escaped = !escaped && ch === '\\';
      }
      return 'string';
    }
    if (stream.match(/^-?\d+(\.\d+)?([eE][+-]?\d+)?/)) return 'number';
    if (stream.match(/^(true|false)\b/)) return 'atom';
    if (stream.match(/^[A-Za-z_][\w-]*/)) {
      // The first word on a line followed by a label or a brace opens a block (`path "…" {`).
      if (stream.match(/^\s*("|\{)/, false)) return 'keyword';
      return stream.match(/^\s*=/, false) ? 'propertyName' : 'variableName';
    }
    if (stream.match(/^[{}[\]]/)) return 'bracket';
    if (stream.match(/^[=,:]/)) return 'operator';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '#', block: { open: '/*', close: '*/' } } },
});
