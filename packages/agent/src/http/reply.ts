/** What a handler returns; `respond.ts` turns it into bytes. */
export type Reply =
  | { kind: 'json'; body: unknown }
  | { kind: 'empty' }
  | { kind: 'text'; body: string | Buffer }
  | { kind: 'binary'; body: Buffer; contentType: string; filename?: string }
  | {
      kind: 'stream';
      contentType: string;
      /** Writes until done or until `signal` aborts (the client went away). */
      run(write: (chunk: string) => void, signal: AbortSignal): Promise<void>;
    };

export const json = (body: unknown): Reply => ({ kind: 'json', body });
export const empty: Reply = { kind: 'empty' };
