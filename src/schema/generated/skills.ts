/* Generated from schema/ by `npm run generate`. Do not edit. */

export type SkillsExtension =
  SkillsExtensionSettings | SkillResource | Skill | ListSkillsResult | GetSkillResult | ReadResourceDirectoryResult;

/**
 * The Skills extension (io.modelcontextprotocol/skills) as a server declares it under capabilities.extensions: an object, with the optional directoryRead setting.
 */
export interface SkillsExtensionSettings {
  /**
   * The server implements resources/directory/read.
   */
  directoryRead?: boolean;
}
/**
 * A file of a skill (Skills extension): its URI, the SHA-256 of its raw bytes and their length.
 */
export interface SkillResource {
  uri: string;
  /**
   * sha256: and 64 lowercase hexadecimal characters.
   */
  digest: string;
  /**
   * Length in bytes of the raw content.
   */
  size: number;
}
/**
 * One skill's entry (Skills extension): the URI of its SKILL.md, its frontmatter verbatim, and every file with its digest, or "dynamic".
 */
export interface Skill {
  uri: string;
  frontmatter: {
    name: string;
    description: string;
  };
  /**
   * The complete manifest, or "dynamic" when stable digests cannot be published; nothing else.
   */
  resources: SkillResource[] | 'dynamic';
}
/**
 * The answer to skills/list (Skills extension): a page of skill entries, cacheable.
 */
export interface ListSkillsResult {
  _meta?: ResultMetaObject;
  /**
   * The standard result shape of the Skills extension's methods: always complete.
   */
  resultType: 'complete';
  /**
   * Opaque pagination position.
   */
  nextCursor?: string;
  skills: Skill[];
  /**
   * How long the client may cache the result, in milliseconds.
   */
  ttlMs: number;
  /**
   * Whether caches may share the result across authorization contexts.
   */
  cacheScope: 'public' | 'private';
}
/**
 * Result _meta: the server SHOULD name itself under io.modelcontextprotocol/serverInfo.
 */
export interface ResultMetaObject {
  'io.modelcontextprotocol/serverInfo'?: Implementation;
}
/**
 * Name and version of an MCP implementation.
 */
export interface Implementation {
  name: string;
  /**
   * Human-readable display name.
   */
  title?: string;
  version: string;
  /**
   * What the implementation does.
   */
  description?: string;
  websiteUrl?: string;
  /**
   * Icons a client may show for this item.
   */
  icons?: Icon[];
}
/**
 * An icon for display in a user interface.
 */
export interface Icon {
  /**
   * URI of the icon: https or a data: URI.
   */
  src: string;
  /**
   * Optional MIME type override.
   */
  mimeType?: string;
  /**
   * Sizes such as "48x48", or "any".
   */
  sizes?: string[];
  /**
   * Background theme the icon is made for.
   */
  theme?: 'light' | 'dark';
}
/**
 * The answer to skills/get (Skills extension): one skill entry, cacheable, with no cursor.
 */
export interface GetSkillResult {
  _meta?: ResultMetaObject;
  /**
   * The standard result shape of the Skills extension's methods: always complete.
   */
  resultType: 'complete';
  skill: Skill;
  /**
   * How long the client may cache the result, in milliseconds.
   */
  ttlMs: number;
  /**
   * Whether caches may share the result across authorization contexts.
   */
  cacheScope: 'public' | 'private';
}
/**
 * The answer to resources/directory/read (Skills extension): the direct children of a directory resource, paginated like resources/list.
 */
export interface ReadResourceDirectoryResult {
  _meta?: ResultMetaObject;
  /**
   * The standard result shape of the Skills extension's methods: always complete.
   */
  resultType: 'complete';
  /**
   * Opaque pagination position.
   */
  nextCursor?: string;
  resources: Resource[];
}
/**
 * A resource the server can read.
 */
export interface Resource {
  uri: string;
  name: string;
  /**
   * Human-readable display name.
   */
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  /**
   * Size in bytes of the raw content, if known.
   */
  size?: number;
  /**
   * Icons a client may show for this item.
   */
  icons?: Icon[];
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
}
/**
 * Hints on how the client should use or show an object.
 */
export interface Annotations {
  /**
   * Who the data is for.
   *
   * Items: Sender or recipient of messages and data.
   */
  audience?: ('user' | 'assistant')[];
  /**
   * 0 = least, 1 = most important.
   */
  priority?: number;
  /**
   * ISO 8601 time of the last change.
   */
  lastModified?: string;
}
