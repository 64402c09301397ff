import type { SwaggerOptions } from '@fastify/swagger';
import { documentFrame } from '../../openapi.js';

const description = `The provider-support API on the admin listener (127.0.0.1:3001 by default): organizations, keys, campaigns, calls, touches, consents, suppression lists, webhooks, conversion destinations, reports, audit.

Authenticate with \`Authorization: Bearer <ADMIN_TOKEN>\` (\`/metrics\` takes METRICS_TOKEN when it is set). Every list answers \`{items, next_cursor}\`: pass \`next_cursor\` back as \`cursor\` for the next page; it is null on the last.

Errors are \`{"detail":"<code>"}\` (a 409 adds \`reason\`), except 422, which has FastAPI's shape \`{"detail":[{type, loc, msg, input, ctx?}]}\` listing every failing field. Every answer carries \`X-Request-Id\`.`;

export const ADMIN_TAGS: { name: string; description: string }[] = [
  { name: 'organizations', description: 'Tenants: their settings and tracking switch' },
  { name: 'keys', description: 'API keys of the public API: issued, scoped, rotated, revoked' },
  { name: 'campaigns', description: 'Campaigns, their number pools and pool health' },
  { name: 'calls', description: 'Inbound calls and their attribution' },
  { name: 'touches', description: 'Outbound touches: decisions, checks and dispatch' },
  { name: 'consents', description: 'Consent grants and revocations per contact' },
  { name: 'suppression', description: 'Internal, national, state and litigator lists' },
  { name: 'webhooks', description: 'Outgoing webhook endpoints, deliveries and attempts' },
  { name: 'conversion destinations', description: 'Ad platforms that receive conversions' },
  { name: 'exports', description: 'Conversion files for Google Ads and Meta' },
  { name: 'reports', description: 'Traffic and touch reports, and the rows behind a cell' },
  { name: 'audit', description: 'Every change an organization saw, with who and when' },
  { name: 'console', description: 'Users and links of the web console' },
  { name: 'system', description: 'Readiness, liveness and metrics of the service' },
];

/**
 * The admin document's frame (/admin/openapi.json); each operation comes from its route's
 * `adminRoute` spec (openapi.ts).
 */
export const adminOpenapiOptions: SwaggerOptions = {
  openapi: {
    ...documentFrame('Call tracking admin API', description, 'admin'),
    tags: ADMIN_TAGS,
    components: {
      securitySchemes: {
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
        metricsToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'METRICS_TOKEN, or ADMIN_TOKEN when it is not set',
        },
      },
    },
  },
};
