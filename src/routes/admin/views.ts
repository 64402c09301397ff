/**
 * The admin views are built in the domain (src/domain/admin/views.ts). This re-export serves
 * the list and activity routes until their refactor imports from there.
 */
export {
  callView,
  campaignSummary,
  consentEventView,
  numberView,
  touchView,
} from '../../domain/admin/views.js';
