/* Generated from schema/ by `npm run generate`. Do not edit. */

/**
 * A JSON-RPC request id: a string or an integer (never null).
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "RequestId".
 */
export type RequestId = string | number;
/**
 * Token that ties progress notifications to a request.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ProgressToken".
 */
export type ProgressToken = string | number;
/**
 * Opaque pagination position.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "Cursor".
 */
export type Cursor = string;
/**
 * Sender or recipient of messages and data.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "Role".
 */
export type Role = 'user' | 'assistant';
/**
 * Log severity, as in RFC 5424 syslog.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "LoggingLevel".
 */
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
/**
 * A result or an error response.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "JSONRPCResponse".
 */
export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;
/**
 * Any single JSON-RPC message.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "JSONRPCMessage".
 */
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResultResponse | JSONRPCErrorResponse;
/**
 * A result that carries no data (ping, setLevel, subscribe…).
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "EmptyResult".
 */
export type EmptyResult = Result;
/**
 * Any content block.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ContentBlock".
 */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;
/**
 * State of a task.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "TaskStatus".
 */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
/**
 * Result of tasks/get.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "GetTaskResult".
 */
export type GetTaskResult = Result & Task;
/**
 * Result of tasks/cancel.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "CancelTaskResult".
 */
export type CancelTaskResult = Result & Task;
/**
 * Any result a server sends.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ServerResult".
 */
export type ServerResult =
  | Result
  | InitializeResult
  | ListResourcesResult
  | ListResourceTemplatesResult
  | ReadResourceResult
  | ListPromptsResult
  | GetPromptResult
  | ListToolsResult
  | CallToolResult
  | CompleteResult
  | CreateTaskResult
  | GetTaskResult
  | GetTaskPayloadResult
  | CancelTaskResult
  | ListTasksResult;
/**
 * Parameters of notifications/tasks/status: the whole task.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "TaskStatusNotificationParams".
 */
export type TaskStatusNotificationParams = NotificationParams & Task;
/**
 * Any notification a server sends.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ServerNotification".
 */
export type ServerNotification =
  | CancelledNotification
  | ProgressNotification
  | LoggingMessageNotification
  | ResourceUpdatedNotification
  | ResourceListChangedNotification
  | ToolListChangedNotification
  | PromptListChangedNotification
  | TaskStatusNotification
  | ElicitationCompleteNotification;
/**
 * Content allowed in sampling messages.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "SamplingMessageContentBlock".
 */
export type SamplingMessageContentBlock =
  TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;
/**
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "SingleSelectEnumSchema".
 */
export type SingleSelectEnumSchema = UntitledSingleSelectEnumSchema | TitledSingleSelectEnumSchema;
/**
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "MultiSelectEnumSchema".
 */
export type MultiSelectEnumSchema = UntitledMultiSelectEnumSchema | TitledMultiSelectEnumSchema;
/**
 * An enumeration field of an elicitation form.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "EnumSchema".
 */
export type EnumSchema = SingleSelectEnumSchema | MultiSelectEnumSchema | LegacyTitledEnumSchema;
/**
 * A field of an elicitation form: flat, primitive types only.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "PrimitiveSchemaDefinition".
 */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;
/**
 * Parameters of elicitation/create.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ElicitRequestParams".
 */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;
/**
 * Any request a server sends to the client.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ServerRequest".
 */
export type ServerRequest =
  | PingRequest
  | CreateMessageRequest
  | ListRootsRequest
  | ElicitRequest
  | GetTaskRequest
  | GetTaskPayloadRequest
  | CancelTaskRequest
  | ListTasksRequest;
/**
 * Any request a client sends.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ClientRequest".
 */
export type ClientRequest =
  | InitializeRequest
  | PingRequest
  | ListResourcesRequest
  | ListResourceTemplatesRequest
  | ReadResourceRequest
  | SubscribeRequest
  | UnsubscribeRequest
  | ListPromptsRequest
  | GetPromptRequest
  | ListToolsRequest
  | CallToolRequest
  | GetTaskRequest
  | GetTaskPayloadRequest
  | CancelTaskRequest
  | ListTasksRequest
  | SetLevelRequest
  | CompleteRequest;
/**
 * Any notification a client sends.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ClientNotification".
 */
export type ClientNotification =
  | CancelledNotification
  | InitializedNotification
  | ProgressNotification
  | TaskStatusNotification
  | RootsListChangedNotification;
/**
 * Any result a client sends (an empty result answers ping).
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ClientResult".
 */
export type ClientResult =
  | Result
  | GetTaskResult
  | GetTaskPayloadResult
  | CancelTaskResult
  | ListTasksResult
  | CreateTaskResult
  | CreateMessageResult
  | ListRootsResult
  | ElicitResult;

/**
 * Client and server messages of MCP revision 2025-11-25, written for mcp-conformance from the specification (https://modelcontextprotocol.io/specification/2025-11-25). Open like the specification: unknown properties are allowed everywhere.
 */
export interface MCPMessages {
  [k: string]: unknown;
}
/**
 * A request that expects a response.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "JSONRPCRequest".
 */
export interface JSONRPCRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: {
    [k: string]: unknown;
  };
}
/**
 * A notification, which never gets a response.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "JSONRPCNotification".
 */
export interface JSONRPCNotification {
  jsonrpc: '2.0';
  method: string;
  params?: {
    [k: string]: unknown;
  };
}
/**
 * A successful response.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "JSONRPCResultResponse".
 */
export interface JSONRPCResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Result;
}
/**
 * Base of every result: any object, with an optional _meta.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "Result".
 */
export interface Result {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * The error member of an error response; data is any JSON value.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "Error".
 */
export interface Error {
  /**
   * Error type; JSON-RPC codes are integers.
   */
  code: number;
  /**
   * Short description of the error.
   */
  message: string;
  data?: unknown;
}
/**
 * An error response. The id may be left out when the request id could not be read.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "JSONRPCErrorResponse".
 */
export interface JSONRPCErrorResponse {
  jsonrpc: '2.0';
  id?: RequestId;
  error: Error;
}
/**
 * Error -32042: the request needs URL-mode elicitations first.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "URLElicitationRequiredError".
 */
export interface URLElicitationRequiredError {
  jsonrpc: '2.0';
  id?: RequestId;
  error: Error & {
    code: -32042;
    data: {
      elicitations: ElicitRequestURLParams[];
      [k: string]: unknown;
    };
  };
}
/**
 * Parameters of a URL-mode elicitation.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ElicitRequestURLParams".
 */
export interface ElicitRequestURLParams {
  /**
   * Request metadata.
   */
  _meta?: {
    progressToken?: ProgressToken;
    [k: string]: unknown;
  };
  task?: TaskMetadata;
  mode: 'url';
  message: string;
  elicitationId: string;
  /**
   * The URL the user should open.
   */
  url: string;
}
/**
 * Asks the receiver to run the request as a task.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "TaskMetadata".
 */
export interface TaskMetadata {
  /**
   * Requested time to keep the task, in milliseconds.
   */
  ttl?: number;
}
/**
 * Parameters every request may carry.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "RequestParams".
 */
export interface RequestParams {
  _meta?: _Meta;
  [k: string]: unknown;
}
/**
 * Request metadata.
 */
export interface _Meta {
  progressToken?: ProgressToken;
  [k: string]: unknown;
}
/**
 * Parameters of a paginated list request.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "PaginatedRequestParams".
 */
export interface PaginatedRequestParams {
  /**
   * Request metadata.
   */
  _meta?: {
    progressToken?: ProgressToken;
    [k: string]: unknown;
  };
  cursor?: Cursor;
  [k: string]: unknown;
}
/**
 * Parameters every notification may carry.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "NotificationParams".
 */
export interface NotificationParams {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Base of paginated list results.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "PaginatedResult".
 */
export interface PaginatedResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  nextCursor?: Cursor;
}
/**
 * An icon for display in a user interface.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "Icon".
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
 * Name and version of an MCP implementation.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "Implementation".
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
 * Capabilities the server declares; the set is open.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ServerCapabilities".
 */
export interface ServerCapabilities {
  /**
   * Non-standard capabilities.
   */
  experimental?: {
    [k: string]: {
      [k: string]: unknown;
    };
  };
  /**
   * Present when the server may send log messages.
   */
  logging?: {
    [k: string]: unknown;
  };
  /**
   * Present when the server offers argument completion.
   */
  completions?: {
    [k: string]: unknown;
  };
  prompts?: {
    listChanged?: boolean;
  };
  resources?: {
    subscribe?: boolean;
    listChanged?: boolean;
  };
  tools?: {
    listChanged?: boolean;
  };
  /**
   * Present when the server accepts task-augmented requests.
   */
  tasks?: {
    list?: {
      [k: string]: unknown;
    };
    cancel?: {
      [k: string]: unknown;
    };
    requests?: {
      tools?: {
        call?: {
          [k: string]: unknown;
        };
      };
    };
  };
}
/**
 * The server's answer to initialize.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "InitializeResult".
 */
export interface InitializeResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  /**
   * The protocol revision the server will use.
   */
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  /**
   * How to use the server; a hint for the model.
   */
  instructions?: string;
}
/**
 * Hints on how the client should use or show an object.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "Annotations".
 */
export interface Annotations {
  /**
   * Who the data is for.
   */
  audience?: Role[];
  /**
   * 0 = least, 1 = most important.
   */
  priority?: number;
  /**
   * ISO 8601 time of the last change.
   */
  lastModified?: string;
}
/**
 * Text.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "TextContent".
 */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
}
/**
 * An image, base64-encoded.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ImageContent".
 */
export interface ImageContent {
  type: 'image';
  /**
   * Base64 image data.
   */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
}
/**
 * Audio, base64-encoded.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "AudioContent".
 */
export interface AudioContent {
  type: 'audio';
  /**
   * Base64 audio data.
   */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
}
/**
 * The contents of a resource.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ResourceContents".
 */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
}
/**
 * Resource contents as text.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "TextResourceContents".
 */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  text: string;
}
/**
 * Resource contents as base64 binary.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "BlobResourceContents".
 */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  /**
   * Base64 data.
   */
  blob: string;
}
/**
 * A resource embedded in a prompt or tool result.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "EmbeddedResource".
 */
export interface EmbeddedResource {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
}
/**
 * A resource the server can read.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "Resource".
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
 * A link to a resource, returned in tool results or prompts.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ResourceLink".
 */
export interface ResourceLink {
  type: 'resource_link';
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
 * A family of resources described by an RFC 6570 URI template.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ResourceTemplate".
 */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  /**
   * Human-readable display name.
   */
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
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
 * Result of resources/list.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ListResourcesResult".
 */
export interface ListResourcesResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  nextCursor?: Cursor;
  resources: Resource[];
}
/**
 * Result of resources/templates/list.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ListResourceTemplatesResult".
 */
export interface ListResourceTemplatesResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  nextCursor?: Cursor;
  resourceTemplates: ResourceTemplate[];
}
/**
 * Result of resources/read.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ReadResourceResult".
 */
export interface ReadResourceResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  contents: (TextResourceContents | BlobResourceContents)[];
}
/**
 * Hints about a tool's behaviour; never trust them from an untrusted server.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ToolAnnotations".
 */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}
/**
 * How a tool may be run.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ToolExecution".
 */
export interface ToolExecution {
  taskSupport?: 'forbidden' | 'optional' | 'required';
}
/**
 * A tool the client can call.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "Tool".
 */
export interface Tool {
  name: string;
  /**
   * Human-readable display name.
   */
  title?: string;
  description?: string;
  /**
   * JSON Schema of the arguments; its root must be an object schema.
   */
  inputSchema: {
    /**
     * The JSON Schema dialect (default 2020-12).
     */
    $schema?: string;
    type: 'object';
    properties?: {
      [k: string]: {
        [k: string]: unknown;
      };
    };
    required?: string[];
    [k: string]: unknown;
  };
  /**
   * JSON Schema of structuredContent; its root must be an object schema.
   */
  outputSchema?: {
    /**
     * The JSON Schema dialect (default 2020-12).
     */
    $schema?: string;
    type: 'object';
    properties?: {
      [k: string]: {
        [k: string]: unknown;
      };
    };
    required?: string[];
    [k: string]: unknown;
  };
  annotations?: ToolAnnotations;
  execution?: ToolExecution;
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
 * Result of tools/list.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ListToolsResult".
 */
export interface ListToolsResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  nextCursor?: Cursor;
  tools: Tool[];
}
/**
 * Result of tools/call. Tool failures are results with isError: true.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "CallToolResult".
 */
export interface CallToolResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  content: ContentBlock[];
  /**
   * Structured output; conforms to the tool's outputSchema.
   */
  structuredContent?: {
    [k: string]: unknown;
  };
  isError?: boolean;
}
/**
 * An argument a prompt accepts.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "PromptArgument".
 */
export interface PromptArgument {
  name: string;
  /**
   * Human-readable display name.
   */
  title?: string;
  description?: string;
  required?: boolean;
}
/**
 * A prompt or prompt template.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "Prompt".
 */
export interface Prompt {
  name: string;
  /**
   * Human-readable display name.
   */
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
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
 * One message of a prompt.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "PromptMessage".
 */
export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}
/**
 * Result of prompts/list.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ListPromptsResult".
 */
export interface ListPromptsResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  nextCursor?: Cursor;
  prompts: Prompt[];
}
/**
 * Result of prompts/get.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "GetPromptResult".
 */
export interface GetPromptResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  description?: string;
  messages: PromptMessage[];
}
/**
 * Result of completion/complete.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "CompleteResult".
 */
export interface CompleteResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  completion: {
    /**
     * At most 100 suggestions (checked outside the schema).
     */
    values: string[];
    /**
     * Number of options available, which may exceed values.length.
     */
    total?: number;
    hasMore?: boolean;
  };
}
/**
 * A task: the durable state of a task-augmented request.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "Task".
 */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /**
   * ISO 8601 creation time.
   */
  createdAt: string;
  /**
   * ISO 8601 time of the last status change.
   */
  lastUpdatedAt: string;
  /**
   * Milliseconds the task is kept after creation; null for unlimited.
   */
  ttl: number | null;
  /**
   * Suggested polling interval in milliseconds.
   */
  pollInterval?: number;
}
/**
 * Answer to a task-augmented request.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "CreateTaskResult".
 */
export interface CreateTaskResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  task: Task;
}
/**
 * Result of tasks/result: the result type of the original request.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "GetTaskPayloadResult".
 */
export interface GetTaskPayloadResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Result of tasks/list.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ListTasksResult".
 */
export interface ListTasksResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  nextCursor?: Cursor;
  tasks: Task[];
}
/**
 * Parameters of notifications/progress.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ProgressNotificationParams".
 */
export interface ProgressNotificationParams {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  progressToken: ProgressToken;
  /**
   * Progress so far; increases with every notification.
   */
  progress: number;
  /**
   * Total, if known.
   */
  total?: number;
  /**
   * Human-readable progress message.
   */
  message?: string;
}
/**
 * Parameters of notifications/message; data is any JSON value.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "LoggingMessageNotificationParams".
 */
export interface LoggingMessageNotificationParams {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}
/**
 * Parameters of notifications/resources/updated.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ResourceUpdatedNotificationParams".
 */
export interface ResourceUpdatedNotificationParams {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  /**
   * URI of the resource that changed (may be a sub-resource of the subscribed one).
   */
  uri: string;
}
/**
 * Parameters of notifications/cancelled.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "CancelledNotificationParams".
 */
export interface CancelledNotificationParams {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  requestId?: RequestId;
  reason?: string;
}
/**
 * Progress of a long-running request.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ProgressNotification".
 */
export interface ProgressNotification {
  jsonrpc: '2.0';
  method: 'notifications/progress';
  params: ProgressNotificationParams;
}
/**
 * A log message.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "LoggingMessageNotification".
 */
export interface LoggingMessageNotification {
  jsonrpc: '2.0';
  method: 'notifications/message';
  params: LoggingMessageNotificationParams;
}
/**
 * A subscribed resource changed.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ResourceUpdatedNotification".
 */
export interface ResourceUpdatedNotification {
  jsonrpc: '2.0';
  method: 'notifications/resources/updated';
  params: ResourceUpdatedNotificationParams;
}
/**
 * The resource list changed.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ResourceListChangedNotification".
 */
export interface ResourceListChangedNotification {
  jsonrpc: '2.0';
  method: 'notifications/resources/list_changed';
  params?: NotificationParams;
}
/**
 * The tool list changed.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ToolListChangedNotification".
 */
export interface ToolListChangedNotification {
  jsonrpc: '2.0';
  method: 'notifications/tools/list_changed';
  params?: NotificationParams;
}
/**
 * The prompt list changed.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "PromptListChangedNotification".
 */
export interface PromptListChangedNotification {
  jsonrpc: '2.0';
  method: 'notifications/prompts/list_changed';
  params?: NotificationParams;
}
/**
 * Cancels an earlier request.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "CancelledNotification".
 */
export interface CancelledNotification {
  jsonrpc: '2.0';
  method: 'notifications/cancelled';
  params: CancelledNotificationParams;
}
/**
 * A task changed status.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "TaskStatusNotification".
 */
export interface TaskStatusNotification {
  jsonrpc: '2.0';
  method: 'notifications/tasks/status';
  params: TaskStatusNotificationParams;
}
/**
 * A URL-mode elicitation finished.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ElicitationCompleteNotification".
 */
export interface ElicitationCompleteNotification {
  jsonrpc: '2.0';
  method: 'notifications/elicitation/complete';
  params: {
    elicitationId: string;
    [k: string]: unknown;
  };
}
/**
 * Checks that the other side is alive.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "PingRequest".
 */
export interface PingRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'ping';
  params?: RequestParams;
}
/**
 * Asks the client for its roots.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ListRootsRequest".
 */
export interface ListRootsRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'roots/list';
  params?: RequestParams;
}
/**
 * A hint for model selection.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ModelHint".
 */
export interface ModelHint {
  /**
   * A model name or family, matched as a substring.
   */
  name?: string;
}
/**
 * The server's model preferences for sampling; the client may ignore them.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ModelPreferences".
 */
export interface ModelPreferences {
  hints?: ModelHint[];
  /**
   * How much to prioritise cost (0 to 1).
   */
  costPriority?: number;
  /**
   * How much to prioritise speed (0 to 1).
   */
  speedPriority?: number;
  /**
   * How much to prioritise intelligence (0 to 1).
   */
  intelligencePriority?: number;
}
/**
 * A tool call made by the model during sampling.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ToolUseContent".
 */
export interface ToolUseContent {
  type: 'tool_use';
  id: string;
  name: string;
  /**
   * Tool arguments.
   */
  input: {
    [k: string]: unknown;
  };
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
}
/**
 * The result of a tool call, sent back to the model during sampling.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ToolResultContent".
 */
export interface ToolResultContent {
  type: 'tool_result';
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: {
    [k: string]: unknown;
  };
  isError?: boolean;
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
}
/**
 * How the model may use tools during sampling.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ToolChoice".
 */
export interface ToolChoice {
  mode?: 'auto' | 'required' | 'none';
}
/**
 * A message to or from an LLM.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "SamplingMessage".
 */
export interface SamplingMessage {
  role: Role;
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
}
/**
 * Parameters of sampling/createMessage.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "CreateMessageRequestParams".
 */
export interface CreateMessageRequestParams {
  /**
   * Request metadata.
   */
  _meta?: {
    progressToken?: ProgressToken;
    [k: string]: unknown;
  };
  messages: SamplingMessage[];
  modelPreferences?: ModelPreferences;
  systemPrompt?: string;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  /**
   * Upper bound on tokens to sample.
   */
  maxTokens: number;
  stopSequences?: string[];
  /**
   * Provider-specific metadata.
   */
  metadata?: {
    [k: string]: unknown;
  };
  tools?: Tool[];
  toolChoice?: ToolChoice;
  task?: TaskMetadata;
}
/**
 * Asks the client to sample an LLM.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "CreateMessageRequest".
 */
export interface CreateMessageRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'sampling/createMessage';
  params: CreateMessageRequestParams;
}
/**
 * A string field of an elicitation form.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "StringSchema".
 */
export interface StringSchema {
  type: 'string';
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  default?: string;
}
/**
 * A number field of an elicitation form.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "NumberSchema".
 */
export interface NumberSchema {
  type: 'number' | 'integer';
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  default?: number;
}
/**
 * A boolean field of an elicitation form.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "BooleanSchema".
 */
export interface BooleanSchema {
  type: 'boolean';
  title?: string;
  description?: string;
  default?: boolean;
}
/**
 * Choose one of plain values.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "UntitledSingleSelectEnumSchema".
 */
export interface UntitledSingleSelectEnumSchema {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  default?: string;
}
/**
 * Choose one of labelled values.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "TitledSingleSelectEnumSchema".
 */
export interface TitledSingleSelectEnumSchema {
  type: 'string';
  title?: string;
  description?: string;
  oneOf: {
    /**
     * The value.
     */
    const: string;
    /**
     * Its label.
     */
    title: string;
  }[];
  default?: string;
}
/**
 * Choose several plain values.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "UntitledMultiSelectEnumSchema".
 */
export interface UntitledMultiSelectEnumSchema {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: {
    type: 'string';
    enum: string[];
  };
  default?: string[];
}
/**
 * Choose several labelled values.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "TitledMultiSelectEnumSchema".
 */
export interface TitledMultiSelectEnumSchema {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: {
    anyOf: {
      /**
       * The value.
       */
      const: string;
      /**
       * Its label.
       */
      title: string;
    }[];
  };
  default?: string[];
}
/**
 * Deprecated: choose one value, labelled by the parallel enumNames.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "LegacyTitledEnumSchema".
 */
export interface LegacyTitledEnumSchema {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  enumNames?: string[];
  default?: string;
}
/**
 * Parameters of a form-mode elicitation.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ElicitRequestFormParams".
 */
export interface ElicitRequestFormParams {
  /**
   * Request metadata.
   */
  _meta?: {
    progressToken?: ProgressToken;
    [k: string]: unknown;
  };
  task?: TaskMetadata;
  mode?: 'form';
  message: string;
  /**
   * A restricted JSON Schema: a flat object of primitive fields.
   */
  requestedSchema: {
    $schema?: string;
    type: 'object';
    properties: {
      [k: string]: PrimitiveSchemaDefinition;
    };
    required?: string[];
  };
}
/**
 * Asks the user, through the client, for input.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ElicitRequest".
 */
export interface ElicitRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'elicitation/create';
  params: ElicitRequestParams;
}
/**
 * Polls a task.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "GetTaskRequest".
 */
export interface GetTaskRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'tasks/get';
  params: {
    taskId: string;
    [k: string]: unknown;
  };
}
/**
 * Waits for a task's result.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "GetTaskPayloadRequest".
 */
export interface GetTaskPayloadRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'tasks/result';
  params: {
    taskId: string;
    [k: string]: unknown;
  };
}
/**
 * Cancels a task.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "CancelTaskRequest".
 */
export interface CancelTaskRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'tasks/cancel';
  params: {
    taskId: string;
    [k: string]: unknown;
  };
}
/**
 * Lists tasks.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ListTasksRequest".
 */
export interface ListTasksRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'tasks/list';
  params?: PaginatedRequestParams;
}
/**
 * What the client can do, declared in initialize. Open: a client may declare capabilities of its own.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ClientCapabilities".
 */
export interface ClientCapabilities {
  /**
   * Non-standard capabilities.
   */
  experimental?: {
    [k: string]: {
      [k: string]: unknown;
    };
  };
  roots?: {
    /**
     * Whether the client notifies changes of its roots.
     */
    listChanged?: boolean;
  };
  sampling?: {
    context?: {
      [k: string]: unknown;
    };
    tools?: {
      [k: string]: unknown;
    };
  };
  elicitation?: {
    form?: {
      [k: string]: unknown;
    };
    url?: {
      [k: string]: unknown;
    };
  };
  /**
   * Which requests the client can run as tasks, and whether it lists and cancels them.
   */
  tasks?: {
    list?: {
      [k: string]: unknown;
    };
    cancel?: {
      [k: string]: unknown;
    };
    requests?: {
      sampling?: {
        createMessage?: {
          [k: string]: unknown;
        };
      };
      elicitation?: {
        create?: {
          [k: string]: unknown;
        };
      };
    };
  };
}
/**
 * Opens the session: the client names the revision it asks for, its capabilities and itself.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "InitializeRequest".
 */
export interface InitializeRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'initialize';
  params: {
    _meta?: _Meta;
    /**
     * The revision the client asks for (it supports it, the latest it can).
     */
    protocolVersion: string;
    capabilities: ClientCapabilities;
    clientInfo: Implementation;
    [k: string]: unknown;
  };
}
/**
 * Tells the server the client is ready, after the initialize result.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "InitializedNotification".
 */
export interface InitializedNotification {
  jsonrpc: '2.0';
  method: 'notifications/initialized';
  params?: NotificationParams;
}
/**
 * Lists the server's resources (one page).
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ListResourcesRequest".
 */
export interface ListResourcesRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'resources/list';
  params?: PaginatedRequestParams;
}
/**
 * Lists the server's resource templates (one page).
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ListResourceTemplatesRequest".
 */
export interface ListResourceTemplatesRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'resources/templates/list';
  params?: PaginatedRequestParams;
}
/**
 * Reads a resource.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ReadResourceRequest".
 */
export interface ReadResourceRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'resources/read';
  params: {
    _meta?: _Meta;
    uri: string;
    [k: string]: unknown;
  };
}
/**
 * Asks for notifications/resources/updated about one resource.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "SubscribeRequest".
 */
export interface SubscribeRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'resources/subscribe';
  params: {
    _meta?: _Meta;
    uri: string;
    [k: string]: unknown;
  };
}
/**
 * Ends a subscription to a resource.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "UnsubscribeRequest".
 */
export interface UnsubscribeRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'resources/unsubscribe';
  params: {
    _meta?: _Meta;
    uri: string;
    [k: string]: unknown;
  };
}
/**
 * Lists the server's prompts (one page).
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ListPromptsRequest".
 */
export interface ListPromptsRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'prompts/list';
  params?: PaginatedRequestParams;
}
/**
 * Gets a prompt, its arguments filled in.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "GetPromptRequest".
 */
export interface GetPromptRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'prompts/get';
  params: {
    _meta?: _Meta;
    name: string;
    /**
     * Argument values: strings only.
     */
    arguments?: {
      [k: string]: string;
    };
    [k: string]: unknown;
  };
}
/**
 * Lists the server's tools (one page).
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ListToolsRequest".
 */
export interface ListToolsRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'tools/list';
  params?: PaginatedRequestParams;
}
/**
 * Calls a tool.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "CallToolRequest".
 */
export interface CallToolRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'tools/call';
  params: {
    _meta?: _Meta;
    name: string;
    arguments?: {
      [k: string]: unknown;
    };
    task?: TaskMetadata;
    [k: string]: unknown;
  };
}
/**
 * Sets the least severe level of notifications/message the server sends.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "SetLevelRequest".
 */
export interface SetLevelRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'logging/setLevel';
  params: {
    _meta?: _Meta;
    level: LoggingLevel;
    [k: string]: unknown;
  };
}
/**
 * What completion/complete completes an argument of: a prompt.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "PromptReference".
 */
export interface PromptReference {
  type: 'ref/prompt';
  name: string;
  title?: string;
}
/**
 * What completion/complete completes an argument of: a resource template.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ResourceTemplateReference".
 */
export interface ResourceTemplateReference {
  type: 'ref/resource';
  /**
   * A URI or URI template.
   */
  uri: string;
}
/**
 * Asks for completions of an argument of a prompt or resource template.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "CompleteRequest".
 */
export interface CompleteRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'completion/complete';
  params: {
    _meta?: _Meta;
    ref: PromptReference | ResourceTemplateReference;
    argument: {
      name: string;
      value: string;
    };
    /**
     * Arguments already resolved.
     */
    context?: {
      arguments?: {
        [k: string]: string;
      };
    };
    [k: string]: unknown;
  };
}
/**
 * Tells the server the client's roots changed.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "RootsListChangedNotification".
 */
export interface RootsListChangedNotification {
  jsonrpc: '2.0';
  method: 'notifications/roots/list_changed';
  params?: NotificationParams;
}
/**
 * A directory or file the server may work in.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "Root".
 */
export interface Root {
  /**
   * A file:// URI (the prose says so; the schema, any URI).
   */
  uri: string;
  name?: string;
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
}
/**
 * The answer to roots/list.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ListRootsResult".
 */
export interface ListRootsResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  roots: Root[];
}
/**
 * The answer to sampling/createMessage: the sampled message and the model that made it.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "CreateMessageResult".
 */
export interface CreateMessageResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  role: Role;
  content:
    TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent | SamplingMessageContentBlock[];
  model: string;
  /**
   * endTurn, stopSequence, maxTokens, or a provider's own.
   */
  stopReason?: string;
}
/**
 * The answer to elicitation/create: what the user did, and on accept (form mode) the values.
 *
 * This interface was referenced by `MCPMessages`'s JSON-Schema
 * via the `definition` "ElicitResult".
 */
export interface ElicitResult {
  /**
   * Reserved for protocol-level metadata (see the _meta general field).
   */
  _meta?: {
    [k: string]: unknown;
  };
  action: 'accept' | 'decline' | 'cancel';
  content?: {
    [k: string]: string | number | boolean | string[];
  };
}
