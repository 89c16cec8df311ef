// The rule engine Test Rule runs: the plan (one search per event variable) and the detections.
export { planRuleTest } from '../../udm/rule/plan';
export { runRuleTest } from '../../udm/rule/engine';
