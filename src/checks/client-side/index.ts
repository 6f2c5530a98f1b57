// Every client-side check, in report order.
import type { ClientCheckDef } from '../kit/client-check.js';
import { CLIENT_CAPABILITY_CHECKS } from './capabilities.js';
import { CLIENT_FRAME_CHECKS } from './frames.js';
import { CLIENT_HTTP_CHECKS } from './http.js';
import { CLIENT_LIFECYCLE_CHECKS } from './lifecycle.js';
import { CLIENT_MRTR_CHECKS } from './mrtr.js';
import { CLIENT_STDIO_CHECKS } from './stdio.js';
import { CLIENT_REQUEST_CHECKS } from './requests.js';

export { CLIENT_SCENARIOS } from './scenarios.js';

export const CLIENT_CHECKS: ClientCheckDef[] = [
  ...CLIENT_FRAME_CHECKS,
  ...CLIENT_LIFECYCLE_CHECKS,
  ...CLIENT_MRTR_CHECKS,
  ...CLIENT_CAPABILITY_CHECKS,
  ...CLIENT_HTTP_CHECKS,
  ...CLIENT_STDIO_CHECKS,
  ...CLIENT_REQUEST_CHECKS,
];
