/** Rule-based threshold alerts: validate rules with `alertRuleSchema`, evaluate them without I/O. */
export {
  ALERT_LEVELS,
  bySeverity,
  compareLevels,
  isAlertLevel,
  isAtLeast,
  levelRank,
  maxLevel,
  type AlertLevel,
} from './levels'
export {
  ALERT_OPERATOR_LABELS,
  ALERT_OPERATORS,
  MAX_ATTRIBUTE_LENGTH,
  MAX_MESSAGE_LENGTH,
  NUMERIC_OPERATORS,
  alertRuleSchema,
  alertRulesSchema,
  type AlertOperator,
  type AlertRule,
} from './schema'
export {
  evaluateFeatures,
  evaluateRules,
  fillTemplate,
  firingRule,
  toFiniteNumber,
  valueText,
  type Alert,
  type AlertFeature,
  type AlertValue,
  type EvaluateOptions,
  type FeatureAlert,
} from './engine'
