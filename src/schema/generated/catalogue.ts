/* Generated from schema/ by `npm run generate`. Do not edit. */

/**
 * The RFC 2119 keyword as written, or a parenthesised kind: (schema) only the published JSON Schema types it, (schema doc) a schema comment says it, (JSON-RPC) inherited from JSON-RPC 2.0, (defined) the spec defines it without a keyword, (client) an obligation of the client; the rest are informational
 */
export type CatalogueLevel =
  | 'MUST'
  | 'MUST NOT'
  | 'SHOULD'
  | 'SHOULD NOT'
  | 'MAY'
  | 'RECOMMENDED'
  | '(schema)'
  | '(schema doc)'
  | '(JSON-RPC)'
  | '(defined)'
  | '(undefined)'
  | '(implied)'
  | '(capability)'
  | '(semantic)'
  | '(reserved)'
  | '(restricted subset)'
  | '(relaxed)'
  | '(optional)'
  | '(informative)'
  | '(robustness)'
  | '(consumer guidance)'
  | '(SSE + MCP)'
  | '(client)'
  | '(07 change)';

/**
 * catalogue/requirements.yaml: the requirement catalogue the suite is held to (see catalogue/README.md).
 */
export interface Catalogue {
  /**
   * @minItems 1
   */
  sections: [CatalogueSection, ...CatalogueSection[]];
  /**
   * @minItems 1
   */
  requirements: [CatalogueRequirement, ...CatalogueRequirement[]];
}
export interface CatalogueSection {
  /**
   * The specification's sections are numbered (1.1 … 1.21); an extension's, or the project's own, is a short name (apps, tasks-ext, schema)
   */
  id: string;
  title: string;
  /**
   * What holds for every row of the section
   */
  note?: string;
}
export interface CatalogueRequirement {
  /**
   * Stable id, cited by checks (requirement.id, covers), cases, faults and reports
   */
  id: string;
  /**
   * The id of one of the sections
   */
  section: string;
  level: CatalogueLevel;
  /**
   * The level as the source words it, when it says more than the keyword (e.g. "MUST (-32602; HTTP 400)")
   */
  levelNote?: string;
  /**
   * The protocol revisions the requirement applies to, oldest first
   *
   * @minItems 1
   */
  revisions: [
    '2025-03-26' | '2025-06-18' | '2025-11-25' | '2026-07-28',
    ...('2025-03-26' | '2025-06-18' | '2025-11-25' | '2026-07-28')[]
  ];
  /**
   * The page and section that state it, in the newest revision it applies to (or the one the source names)
   */
  link: string;
  /**
   * One-line paraphrase ("—" when the source's own words suffice)
   */
  text: string;
  /**
   * What a black-box test client sends or watches; "—", "Fixture…", "Not testable…" or "Cannot be forced…" mark a row no check must cover
   */
  test: string;
  /**
   * The observable and the suggested verdict
   */
  expected?: string;
  /**
   * Page › section, with the sentences the row rests on quoted
   */
  source?: string;
  notes?: string;
}
