import { BASE_CHECKS } from '../checks/base.js';
import type { CheckDef } from '../checks/check.js';
import { FEATURE_CHECKS } from '../checks/features.js';
import { HTTP_CHECKS } from '../checks/http.js';
import { HTTP_SESSION_CHECKS } from '../checks/http-sessions.js';
import { HTTP_STREAM_CHECKS } from '../checks/http-streams.js';
import { LIFECYCLE_CHECKS } from '../checks/lifecycle.js';
import { STATELESS_CHECKS } from '../checks/stateless.js';
import { STATELESS_HTTP_CHECKS } from '../checks/stateless-http.js';
import { TASK_CHECKS } from '../checks/tasks.js';
import { CONVERSATION_CHECKS } from '../checks/conversation.js';
import { AUTH_CHECKS } from '../checks/auth.js';
import { CLIENT_REQUEST_CHECKS } from '../checks/client-requests.js';
import { RESOURCE_TEMPLATE_CHECKS } from '../checks/resource-templates.js';
import { APPS_CHECKS } from '../checks/apps.js';
import { TASK_EXTENSION_CHECKS } from '../checks/tasks-extension.js';

/** Every active built-in check, in report order. The passive frame rules are in frame-rules.ts. */
export const CHECKS: CheckDef[] = [...LIFECYCLE_CHECKS, ...BASE_CHECKS, ...FEATURE_CHECKS, ...TASK_CHECKS, ...HTTP_CHECKS, ...HTTP_SESSION_CHECKS, ...HTTP_STREAM_CHECKS, ...STATELESS_CHECKS, ...STATELESS_HTTP_CHECKS, ...CONVERSATION_CHECKS, ...AUTH_CHECKS, ...CLIENT_REQUEST_CHECKS, ...RESOURCE_TEMPLATE_CHECKS, ...APPS_CHECKS, ...TASK_EXTENSION_CHECKS];
