/** Where one audit device's lines go: a file, a socket, stdout, or nowhere. */
export interface AuditSink {
  /**
   * Writes one whole line (it ends in `\n`). Resolves once the line has left for its
   * destination; rejects when it cannot be written, and the broker then counts this device
   * as failed for the entry.
   */
  write(line: string): Promise<void>;
  /** Releases what the sink holds (sockets). Writing after closing is not supported. */
  close(): Promise<void>;
}
