import type { CheckDef } from '../checks/check.js';
import { ENVELOPE_PROPERTIES } from '../properties/envelopes.js';
import { PAGINATION_PROPERTIES } from '../properties/pagination.js';
import { PROMPT_PROPERTIES } from '../properties/prompts.js';
import { RESOURCE_PROPERTIES } from '../properties/resources.js';
import { TOOL_PROPERTIES } from '../properties/tools.js';

/** Every built-in property: fast-check generated checks, run and reported like the other checks. */
export const PROPERTIES: CheckDef[] = [...ENVELOPE_PROPERTIES, ...TOOL_PROPERTIES, ...RESOURCE_PROPERTIES, ...PROMPT_PROPERTIES, ...PAGINATION_PROPERTIES];
