import type { CheckDef } from '../checks/check.js';
import { ENVELOPE_PROPERTIES } from './envelopes.js';
import { PAGINATION_PROPERTIES } from './pagination.js';
import { PROMPT_PROPERTIES } from './prompts.js';
import { RESOURCE_PROPERTIES } from './resources.js';
import { TOOL_PROPERTIES } from './tools.js';

/** Every built-in property: fast-check generated checks, run and reported like the other checks. */
export const PROPERTIES: CheckDef[] = [...ENVELOPE_PROPERTIES, ...TOOL_PROPERTIES, ...RESOURCE_PROPERTIES, ...PROMPT_PROPERTIES, ...PAGINATION_PROPERTIES];
