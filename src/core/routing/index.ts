// Routing rules and A/B variants of short URLs and campaigns: what a rule may say, for the API's
// validation. The compiled form the redirect runs is routing-rules.ts; the visitor traits it reads,
// visitor-traits.ts.
export {
  BROWSERS,
  DEVICE_TYPES,
  MAX_LISTED_VALUES,
  MAX_ROUTING_RULES,
  MAX_VARIANTS,
  MIN_VARIANTS,
  OPERATING_SYSTEMS,
  TOTAL_WEIGHT,
} from './routing-rules.js';
export { isCountryCode, isHostName, isLanguageSubtag, isRegionCode } from './condition-values.js';
