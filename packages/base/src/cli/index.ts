/** The command-line framework all three binaries use: flag declarations, `commandDefiner`, `CommandTable`. @module */
export { CliError } from './cli-error.js';
export { CommandTable } from './command-table.js';
export { type Command, type CommandLine, type CommandSpec, commandDefiner, type RunInput } from './define-command.js';
export { type FlagSpec, type FlagSpecs, type FlagValues, flag } from './flag-spec.js';
