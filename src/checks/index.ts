// Every built-in check, by area: each area folder exports its lists, and this file sets their report order.
import type { CheckDef } from './kit/check.js';
import type { FrameRule } from './kit/frame-rule.js';
import { APPS_CHECKS } from './apps/checks.js';
import { AUTH_CHECKS } from './auth/checks.js';
import { BASE_CHECKS } from './base/checks.js';
import { ENVELOPE_PROPERTIES } from './base/properties.js';
import { CLIENT_REQUEST_CHECKS } from './client/checks.js';
import { CONVERSATION_CHECKS } from './conversation/checks.js';
import { CONVERSATION_RULES } from './conversation/rules.js';
import { CONTENT_RULES } from './frames/content.js';
import { ENVELOPE_RULES } from './frames/envelope.js';
import { META_RULES } from './frames/meta.js';
import { SCHEMA_RULES } from './frames/schema.js';
import { SESSION_RULES } from './frames/session.js';
import { HTTP_CHECKS } from './http/checks.js';
import { HTTP_SESSION_CHECKS } from './http/sessions.js';
import { HTTP_STREAM_CHECKS } from './http/streams.js';
import { HTTP_ISOLATION_CHECKS } from './http/isolation.js';
import { LIFECYCLE_CHECKS } from './lifecycle/checks.js';
import { PAGINATION_CHECKS } from './pagination/checks.js';
import { PAGINATION_PROPERTIES } from './pagination/properties.js';
import { PROMPT_PROPERTIES } from './prompts/properties.js';
import { RESOURCE_PROPERTIES } from './resources/properties.js';
import { RESOURCE_TEMPLATE_CHECKS } from './resources/templates.js';
import { SKILLS_CHECKS } from './skills/checks.js';
import { STATELESS_CHECKS } from './stateless/checks.js';
import { STATELESS_HEADER_CHECKS } from './stateless/headers.js';
import { STATELESS_HTTP_CHECKS } from './stateless/http.js';
import { STATELESS_RULES } from './stateless/rules.js';
import { TASK_EXTENSION_CHECKS } from './tasks-ext/checks.js';
import { TASK_CHECKS } from './tasks/checks.js';
import { TOOL_CHECKS } from './tools/checks.js';
import { TOOL_PROPERTIES } from './tools/properties.js';

/** Every active built-in check written in code, in report order. */
export const CHECKS: CheckDef[] = [
  ...LIFECYCLE_CHECKS,
  ...BASE_CHECKS,
  ...TOOL_CHECKS,
  ...PAGINATION_CHECKS,
  ...TASK_CHECKS,
  ...HTTP_CHECKS,
  ...HTTP_SESSION_CHECKS,
  ...HTTP_STREAM_CHECKS,
  ...HTTP_ISOLATION_CHECKS,
  ...STATELESS_CHECKS,
  ...STATELESS_HTTP_CHECKS,
  ...STATELESS_HEADER_CHECKS,
  ...CONVERSATION_CHECKS,
  ...AUTH_CHECKS,
  ...CLIENT_REQUEST_CHECKS,
  ...RESOURCE_TEMPLATE_CHECKS,
  ...APPS_CHECKS,
  ...TASK_EXTENSION_CHECKS,
  ...SKILLS_CHECKS,
];

/** Every built-in property: fast-check generated checks, run and reported after the code checks. */
export const PROPERTIES: CheckDef[] = [
  ...ENVELOPE_PROPERTIES,
  ...TOOL_PROPERTIES,
  ...RESOURCE_PROPERTIES,
  ...PROMPT_PROPERTIES,
  ...PAGINATION_PROPERTIES,
];

/**
 * Every passive frame rule, in report order (after the active checks): the envelope, _meta and schema of each frame,
 * then the frame against its session, then the rules of the content, stateless and conversation areas.
 */
export const FRAME_RULES: FrameRule[] = [
  ...ENVELOPE_RULES,
  ...META_RULES,
  ...SCHEMA_RULES,
  ...SESSION_RULES,
  ...CONTENT_RULES,
  ...STATELESS_RULES,
  ...CONVERSATION_RULES,
];
