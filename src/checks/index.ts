import { BASE_CHECKS } from './base.js';
import type { CheckDef } from './check.js';
import { FEATURE_CHECKS } from './features.js';
import { HTTP_CHECKS } from './http.js';
import { LIFECYCLE_CHECKS } from './lifecycle.js';
import { STATELESS_CHECKS } from './stateless.js';

/** Every active built-in check, in report order. The passive frame rules are in frame-rules.ts. */
export const CHECKS: CheckDef[] = [...LIFECYCLE_CHECKS, ...BASE_CHECKS, ...FEATURE_CHECKS, ...HTTP_CHECKS, ...STATELESS_CHECKS];
