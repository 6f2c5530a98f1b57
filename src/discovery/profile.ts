/** What a pagination walk over one list method saw. */
export interface ListWalk {
  method: string;
  pages: number;
  /** Why the walk stopped early, if it did: an error, a repeated cursor, the page cap, a timeout. */
  problem?: string;
  /** Item keys (name or uri) that appeared on more than one page. */
  duplicates: string[];
}

export type Item = Record<string, unknown>;

/** Everything discovery learned about the server: the input of every check. */
export interface ServerProfile {
  /** The protocol version the client asked for at initialize (or sent in every request's _meta, on the stateless wire). */
  requestedVersion: string;
  /** The protocol version the server answered to initialize (on the stateless wire: the one requested). */
  protocolVersion: string;
  /** The schema revision used to validate this server's frames (the negotiated one, or the nearest the project has). */
  revision: string;
  /** The initialize result, or on the stateless wire the server/discover result. */
  initializeResult: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  serverInfo: Record<string, unknown>;
  instructions?: string;
  tools: Item[];
  resources: Item[];
  resourceTemplates: Item[];
  prompts: Item[];
  /** One walk per list method the capabilities allow. */
  walks: ListWalk[];
  /** The revisions the auto probe found the server speaking (one per era), when it ran. */
  spoken?: string[];
}
