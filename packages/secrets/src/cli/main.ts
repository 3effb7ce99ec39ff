#!/usr/bin/env node
/** The `ward` process: runs the command line (run.ts) on the real streams and environment. @module */
import { contextFactory } from './context.js';
import { runCli } from './run.js';

// `ward kv get … | head`: the reader went away; stop quietly instead of printing a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const runtime = {
  env: process.env,
  argv: process.argv.slice(2),
  stdout: process.stdout,
  stdin: process.stdin,
  stderr: process.stderr,
};
process.exitCode = await runCli(runtime.argv, { runtime, makeContext: contextFactory(runtime) });
