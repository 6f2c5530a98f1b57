import { AUTH_CHECKS } from './auth.js';
import { BASE_CHECKS } from './base.js';
import { CONVERSATION_CHECKS } from './conversation.js';
import type { CheckDef } from './check.js';
import { FEATURE_CHECKS } from './features.js';
import { HTTP_CHECKS } from './http.js';
import { HTTP_SESSION_CHECKS } from './http-sessions.js';
import { HTTP_STREAM_CHECKS } from './http-streams.js';
import { LIFECYCLE_CHECKS } from './lifecycle.js';
import { STATELESS_CHECKS } from './stateless.js';
import { STATELESS_HTTP_CHECKS } from './stateless-http.js';
import { TASK_CHECKS } from './tasks.js';
import { CLIENT_REQUEST_CHECKS } from './client-requests.js';
import { RESOURCE_TEMPLATE_CHECKS } from './resource-templates.js';

/** Every active built-in check, in report order. The passive frame rules are in frame-rules.ts. */
export const CHECKS: CheckDef[] = [...LIFECYCLE_CHECKS, ...BASE_CHECKS, ...FEATURE_CHECKS, ...TASK_CHECKS, ...HTTP_CHECKS, ...HTTP_SESSION_CHECKS, ...HTTP_STREAM_CHECKS, ...STATELESS_CHECKS, ...STATELESS_HTTP_CHECKS, ...CONVERSATION_CHECKS, ...AUTH_CHECKS, ...CLIENT_REQUEST_CHECKS, ...RESOURCE_TEMPLATE_CHECKS];
