/** Go's strconv.ParseBool spellings: the one word set the three binaries read booleans with. */
const GO_BOOLS: ReadonlyMap<string, boolean> = new Map([
  ...['1', 't', 'T', 'true', 'TRUE', 'True'].map((s): [string, boolean] => [s, true]),
  ...['0', 'f', 'F', 'false', 'FALSE', 'False'].map((s): [string, boolean] => [s, false]),
]);

/**
 * The boolean `text` spells as Go's strconv.ParseBool reads it, or `undefined` when it is not one of its words
 * (`"yes"`, `" true"`, `""`). Each caller decides what an empty or unknown word means and how to word the refusal.
 */
export function parseGoBool(text: string): boolean | undefined {
  return GO_BOOLS.get(text);
}
