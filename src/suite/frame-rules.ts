import { CONTENT_RULES } from '../checks/content-rules.js';
import type { FrameRule } from '../checks/frame-rule.js';
import { CORE_RULES, PROTOCOL_RULES } from '../checks/frame-rules.js';
import { CONVERSATION_RULES } from '../checks/conversation-rules.js';
import { STATELESS_RULES } from '../checks/stateless.js';

/** Every passive frame rule, in report order (after the active checks). */
export const FRAME_RULES: FrameRule[] = [...CORE_RULES, ...PROTOCOL_RULES, ...CONTENT_RULES, ...STATELESS_RULES, ...CONVERSATION_RULES];
