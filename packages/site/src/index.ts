export { fastifyTrackingNumber } from './fastify.js';
export { nextTrackingNumber } from './next.js';
export { expressTrackingNumber, trackingNumberHandler } from './node.js';
export {
  createTrackingRoute,
  formatNumber,
  type SiteRequest,
  type SiteResponse,
  type TrackingNumberAnswer,
  type TrackingRoute,
  type TrackingRouteOptions,
} from './route.js';
export { type ClientLimit, DEFAULT_CLIENT_LIMIT } from './throttle.js';
