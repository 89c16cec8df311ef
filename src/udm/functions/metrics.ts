// metrics: detection rules only (outcome section, named parameters); search reports them as such.
import { defineFamily, type FunctionSpec } from './types';

/** A metrics function: named parameters, a value to aggregate, in rules only. */
const metric = (name: string, example: string): FunctionSpec => ({
  name,
  params: [],
  variadic: true,
  returns: 'NUMBER (aggregate it, for example max(...))',
  where: 'Rules only',
  example,
  notes: 'Rules only, outcome section only, named parameters.',
});

export const METRICS = defineFamily('metrics', [
  metric('metrics.alert_event_name_count', ''),
  metric(
    'metrics.auth_attempts_fail',
    '$max_fail = max(metrics.auth_attempts_fail(period:1d, window:30d, metric:event_count_sum, agg:max, target.user.userid:$user))',
  ),
  metric(
    'metrics.auth_attempts_success',
    '$total_success = max(metrics.auth_attempts_success(period:1d, window:30d, metric:event_count_sum, agg:sum, target.user.userid:$user))',
  ),
  metric('metrics.auth_attempts_total', ''),
  metric('metrics.dns_bytes_outbound', ''),
  metric('metrics.dns_queries_fail', ''),
  metric('metrics.dns_queries_success', ''),
  metric('metrics.dns_queries_total', ''),
  metric('metrics.file_executions_fail', ''),
  metric('metrics.file_executions_success', ''),
  metric('metrics.file_executions_total', ''),
  metric('metrics.http_queries_fail', ''),
  metric('metrics.http_queries_success', ''),
  metric('metrics.http_queries_total', ''),
  metric('metrics.network_bytes_inbound', ''),
  metric(
    'metrics.network_bytes_outbound',
    '$max_bytes_per_day = max(metrics.network_bytes_outbound(period:1d, window:30d, metric:value_sum, agg:max, principal.asset.ip:$ip))',
  ),
  metric('metrics.network_bytes_total', ''),
  metric('metrics.resource_creation_success', ''),
  metric('metrics.resource_creation_total', ''),
  metric('metrics.resource_deletion_success', ''),
  metric('metrics.resource_read_fail', ''),
  metric('metrics.resource_read_success', ''),
]);
