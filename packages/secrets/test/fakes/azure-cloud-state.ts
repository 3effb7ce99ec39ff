/** What the fake Azure holds, shared by its Graph and Resource Manager routes. */
export interface FakeAzureState {
  applications: Map<string, FakeApp>;
  servicePrincipals: Map<string, { id: string; appId: string }>;
  /** Group names by object id. */
  groups: Map<string, string>;
  groupMembers: Map<string, Set<string>>;
  roleDefinitions: Map<string, { id: string; roleName: string; subscriptionId: string }>;
  roleAssignments: Map<string, { principalId: string; roleDefinitionId: string; scope: string }>;
  /** By lower-cased resource id. */
  machines: Map<string, { location: string; principalIds: string[]; name: string }>;
  /** Role assignments still to refuse with PrincipalNotFound. */
  replicationLag: number;
}

export interface FakeApp {
  id: string;
  appId: string;
  displayName: string;
  passwords: Map<string, { secretText: string; displayName: string; endDateTime: string }>;
}

export type Reply = (status: number, body?: unknown) => void;

/** The value of an OData `<field> eq '<value>'` filter ('' quotes undone). */
export const quoted = (filter: string | null, field: string) =>
  new RegExp(`^${field} eq '((?:[^']|'')*)'$`).exec(filter ?? '')?.[1]?.replaceAll("''", "'");
