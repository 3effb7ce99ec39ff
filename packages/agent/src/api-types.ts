// JSON shapes of the agent API's answers that both the HTTP handlers and the CLI name: one source
// for both, so a change on either side fails the build.

/** `GET /v1/agent/keyring/list` and the keyring changes: every server's gossip keys. */
export interface KeyringResponse {
  /** Per server name, why it failed; empty when all succeeded. */
  Messages: Record<string, string>;
  /** Each key (base64) and how many servers hold it. */
  Keys: Record<string, number>;
  NumNodes: number;
}

/** `PUT /v1/agent/join`: how many addresses answered; `error` is empty once one did. */
export interface JoinResponse {
  num_joined: number;
  error: string;
}

/** One entry of `GET /v1/acl/policies` (the rules are left out). */
export interface PolicyListStub {
  Name: string;
  Description: string;
  CreateIndex: number;
  ModifyIndex: number;
}
