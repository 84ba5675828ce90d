// Routing rules and A/B variants of short URLs and campaigns: the vocabulary, the compiled form the
// redirect runs, and the visitor traits it reads.
export {
  compileRouting,
  DEVICE_TYPES,
  MAX_ROUTING_RULES,
  MAX_VARIANTS,
  MIN_VARIANTS,
  OPERATING_SYSTEMS,
  TOTAL_WEIGHT,
  type CompiledRouting,
  type Routed,
  type RoutingRule,
  type RuleConditions,
  type Variant,
  type VisitorTraits,
} from './routing-rules.js';
export { isCountryCode, isLanguageSubtag } from './condition-values.js';
export { createVisitorTraits } from './visitor-traits.js';
