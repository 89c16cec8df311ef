// The demo registry's catalogue: which models exist where, of which kind. seed.ts turns it into
// versions, evaluations, slices, annotations, checkpoints and deployments, deterministically.

export type ModelKind =
  | 'tabular-classification'
  | 'tabular-regression'
  | 'forecasting'
  | 'image-classification'
  | 'object-detection'
  | 'text-classification'
  | 'custom-xgboost'
  | 'custom-sklearn'
  | 'custom-tensorflow'
  | 'custom-pytorch'
  | 'tuned-llm'
  | 'bqml';

export interface CatalogEntry {
  displayName: string;
  kind: ModelKind;
  location: string;
  /** A user-chosen model id; others get a numeric id as the real service assigns. */
  id?: string;
  versions: number;
  team: string;
  description: string;
  /** Class names for classification kinds (slices and confusion matrices). */
  classes?: string[];
}

export const CATALOG: readonly CatalogEntry[] = [
  {
    displayName: 'churn-predictor',
    id: 'churn-predictor',
    kind: 'tabular-classification',
    location: 'us-central1',
    versions: 4,
    team: 'growth',
    description: 'Predicts subscriber churn within 30 days from billing and usage features.',
    classes: ['churned', 'retained'],
  },
  {
    displayName: 'fraud-detector',
    kind: 'tabular-classification',
    location: 'us-central1',
    versions: 5,
    team: 'risk',
    description: 'Card-not-present fraud scoring for the payments gateway.',
    classes: ['fraud', 'legit'],
  },
  {
    displayName: 'loan-default-risk',
    kind: 'tabular-classification',
    location: 'europe-west4',
    versions: 3,
    team: 'risk',
    description: 'Probability of default at 12 months for consumer loans.',
    classes: ['default', 'repaid'],
  },
  {
    displayName: 'lead-scoring',
    kind: 'tabular-classification',
    location: 'us-central1',
    versions: 2,
    team: 'growth',
    description: 'Ranks inbound sales leads by conversion likelihood.',
    classes: ['converted', 'not-converted'],
  },
  {
    displayName: 'claims-triage',
    kind: 'tabular-classification',
    location: 'europe-west4',
    versions: 1,
    team: 'ops',
    description: 'Routes insurance claims to fast-track, standard or investigation queues.',
    classes: ['fast-track', 'standard', 'investigate'],
  },
  {
    displayName: 'house-price-estimator',
    kind: 'tabular-regression',
    location: 'us-central1',
    versions: 3,
    team: 'analytics',
    description: 'Estimates sale prices from listing attributes.',
  },
  {
    displayName: 'delivery-eta',
    id: 'delivery-eta',
    kind: 'tabular-regression',
    location: 'asia-northeast1',
    versions: 4,
    team: 'ops',
    description: 'Minutes to delivery for last-mile routes.',
  },
  {
    displayName: 'customer-ltv',
    kind: 'tabular-regression',
    location: 'us-central1',
    versions: 2,
    team: 'growth',
    description: 'Twelve-month customer lifetime value.',
  },
  {
    displayName: 'demand-forecast-weekly',
    kind: 'forecasting',
    location: 'us-central1',
    versions: 5,
    team: 'supply',
    description: 'Weekly SKU-level demand forecast for 1,200 stores.',
  },
  {
    displayName: 'energy-load-forecast',
    kind: 'forecasting',
    location: 'europe-west4',
    versions: 2,
    team: 'supply',
    description: 'Hourly grid load forecast, 48-hour horizon.',
  },
  {
    displayName: 'defect-detector-line3',
    kind: 'image-classification',
    location: 'us-central1',
    versions: 3,
    team: 'vision',
    description: 'Flags surface defects on assembly line 3 camera frames.',
    classes: ['ok', 'scratch', 'dent', 'discoloration'],
  },
  {
    displayName: 'plant-disease-classifier',
    kind: 'image-classification',
    location: 'asia-northeast1',
    versions: 2,
    team: 'vision',
    description: 'Leaf images to disease class for the agronomy app.',
    classes: ['healthy', 'rust', 'blight', 'mildew'],
  },
  {
    displayName: 'product-image-tagger',
    kind: 'image-classification',
    location: 'us-central1',
    versions: 1,
    team: 'catalog',
    description: 'Tags catalogue photos with product categories.',
    classes: ['apparel', 'footwear', 'electronics', 'home', 'toys'],
  },
  {
    displayName: 'shelf-object-detector',
    kind: 'object-detection',
    location: 'us-central1',
    versions: 2,
    team: 'vision',
    description: 'Detects products and gaps on retail shelves.',
    classes: ['product', 'gap', 'price-tag'],
  },
  {
    displayName: 'ppe-detector',
    kind: 'object-detection',
    location: 'europe-west4',
    versions: 3,
    team: 'safety',
    description: 'Detects helmets and vests on site cameras.',
    classes: ['helmet', 'vest', 'person'],
  },
  {
    displayName: 'support-ticket-router',
    kind: 'text-classification',
    location: 'us-central1',
    versions: 3,
    team: 'support',
    description: 'Routes support tickets to the right queue.',
    classes: ['billing', 'technical', 'account', 'other'],
  },
  {
    displayName: 'review-sentiment',
    kind: 'text-classification',
    location: 'europe-west4',
    versions: 2,
    team: 'nlp',
    description: 'Sentiment of product reviews.',
    classes: ['positive', 'neutral', 'negative'],
  },
  {
    displayName: 'toxicity-filter',
    kind: 'text-classification',
    location: 'us-central1',
    versions: 1,
    team: 'trust',
    description: 'Flags toxic community posts for moderation.',
    classes: ['toxic', 'clean'],
  },
  {
    displayName: 'xgb-credit-scoring',
    id: 'xgb-credit-scoring',
    kind: 'custom-xgboost',
    location: 'europe-west4',
    versions: 4,
    team: 'risk',
    description: 'Gradient-boosted credit score, custom training pipeline.',
    classes: ['good', 'bad'],
  },
  {
    displayName: 'xgb-propensity',
    kind: 'custom-xgboost',
    location: 'us-central1',
    versions: 2,
    team: 'marketing',
    description: 'Purchase propensity for email campaigns.',
    classes: ['buy', 'no-buy'],
  },
  {
    displayName: 'iforest-anomaly',
    kind: 'custom-sklearn',
    location: 'us-central1',
    versions: 3,
    team: 'sre',
    description: 'Isolation forest over service latency metrics.',
    classes: ['anomaly', 'normal'],
  },
  {
    displayName: 'sklearn-price-elasticity',
    kind: 'custom-sklearn',
    location: 'asia-northeast1',
    versions: 1,
    team: 'pricing',
    description: 'Linear price elasticity per category.',
  },
  {
    displayName: 'wide-deep-ctr',
    kind: 'custom-tensorflow',
    location: 'us-central1',
    versions: 5,
    team: 'ads',
    description: 'Wide & deep click-through-rate model.',
    classes: ['click', 'no-click'],
  },
  {
    displayName: 'tf-speech-commands',
    kind: 'custom-tensorflow',
    location: 'europe-west4',
    versions: 2,
    team: 'devices',
    description: 'Keyword spotting for the smart speaker.',
    classes: ['yes', 'no', 'stop', 'go'],
  },
  {
    displayName: 'two-tower-recsys',
    id: 'two-tower-recsys',
    kind: 'custom-pytorch',
    location: 'us-central1',
    versions: 3,
    team: 'recs',
    description: 'Two-tower retrieval model for the home feed.',
  },
  {
    displayName: 'resnet50-finetuned',
    kind: 'custom-pytorch',
    location: 'asia-northeast1',
    versions: 2,
    team: 'vision',
    description: 'ResNet-50 fine-tuned on warehouse imagery.',
    classes: ['pallet', 'box', 'forklift'],
  },
  {
    displayName: 'gemma-support-tuned',
    id: 'gemma-support-tuned',
    kind: 'tuned-llm',
    location: 'us-central1',
    versions: 3,
    team: 'support',
    description: 'Gemma 2 2B tuned on resolved support conversations.',
  },
  {
    displayName: 'llama-sql-assistant',
    kind: 'tuned-llm',
    location: 'europe-west4',
    versions: 2,
    team: 'data-platform',
    description: 'Llama 3 8B tuned to write BigQuery SQL.',
  },
  {
    displayName: 'bqml-churn-logreg',
    kind: 'bqml',
    location: 'us-central1',
    versions: 1,
    team: 'analytics',
    description: 'Logistic regression trained in BigQuery ML.',
    classes: ['churned', 'retained'],
  },
  {
    displayName: 'bqml-arima-sales',
    kind: 'bqml',
    location: 'us-central1',
    versions: 2,
    team: 'analytics',
    description: 'ARIMA_PLUS sales forecast trained in BigQuery ML.',
  },
];

/** One deployment of a demo endpoint: the model's display name, its version index from 1, the traffic share. */
type DemoDeployment = readonly [model: string, version: number, traffic: number];

const endpoint = (displayName: string, location: string, ...deployments: DemoDeployment[]) => ({
  displayName,
  location,
  deployments: deployments.map(([model, version, traffic]) => ({ model, version, traffic })),
});

/** Deployments of the demo: endpoint display name, location, and its deployments. */
export const DEMO_ENDPOINTS: ReadonlyArray<{
  displayName: string;
  location: string;
  deployments: Array<{ model: string; version: number; traffic: number }>;
}> = [
  endpoint('churn-online', 'us-central1', ['churn-predictor', 3, 100]),
  endpoint('fraud-realtime', 'us-central1', ['fraud-detector', 4, 90], ['fraud-detector', 5, 10]),
  endpoint('vision-line3', 'us-central1', ['defect-detector-line3', 2, 100]),
  endpoint('recsys-serving', 'us-central1', ['two-tower-recsys', 3, 100]),
  endpoint('support-bot', 'us-central1', ['gemma-support-tuned', 2, 100], ['support-ticket-router', 3, 0]),
  endpoint('eu-credit-scoring', 'europe-west4', ['xgb-credit-scoring', 4, 100]),
  endpoint('jp-delivery-eta', 'asia-northeast1', ['delivery-eta', 4, 100]),
  endpoint('staging-sandbox', 'us-central1'),
];
