// google.cloud.aiplatform.v1beta1.ModelService: every RPC of the proto, with the rules of the model
// management spec (seed 000) and the status codes the real service uses (api-facts A.8).
import { parseLocationName } from '../../core/names';
import { requireField, type ServiceHandlers } from './context';
import { invalidArgument } from './errors';
import type { ModelServiceRequests } from './messages';
import { checkLocation } from './store';
import { parseName } from './util';
import { modelEvaluationHandlers } from './model-evaluations';
import { modelLifecycleHandlers } from './model-lifecycle';
import { modelTransferHandlers } from './model-transfer';

export function modelServiceHandlers(): ServiceHandlers<ModelServiceRequests> {
  return {
    ...modelLifecycleHandlers,
    ...modelTransferHandlers,
    ...modelEvaluationHandlers,

    RecommendSpec(req) {
      const parent = parseName('parent', req.parent, parseLocationName);
      checkLocation(parent.location);
      requireField(req.gcsUri, 'gcs_uri');
      if (!/^gs:\/\/[^/]+\/.+/.test(req.gcsUri)) {
        throw invalidArgument(
          `gcs_uri must point at a model folder in Cloud Storage (gs://bucket/path), got "${req.gcsUri}".`,
          [{ field: 'gcs_uri', description: 'not a gs:// folder' }],
        );
      }
      const baseModel = String(req.gcsUri).replace(/\/+$/, '').split('/').pop()!;
      const container = {
        imageUri: 'us-docker.pkg.dev/vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve:latest',
        args: ['--model=/gcs-model'],
      };
      const specs = [
        {
          machineSpec: { machineType: 'g2-standard-12', acceleratorType: 'NVIDIA_L4', acceleratorCount: 1 },
          containerSpec: container,
        },
        {
          machineSpec: { machineType: 'a2-highgpu-1g', acceleratorType: 'NVIDIA_TESLA_A100', acceleratorCount: 1 },
          containerSpec: container,
        },
      ];
      const recommendations =
        req.checkMachineAvailability || req.checkUserQuota
          ? specs.map((spec, i) => ({
              region: parent.location,
              spec,
              userQuotaState: req.checkUserQuota
                ? i === 0
                  ? 'QUOTA_STATE_USER_HAS_QUOTA'
                  : 'QUOTA_STATE_NO_USER_QUOTA'
                : 'QUOTA_STATE_UNSPECIFIED',
            }))
          : [];
      return { baseModel, specs, recommendations };
    },
  };
}
