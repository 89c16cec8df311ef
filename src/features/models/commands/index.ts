// Every Models command, by id.
import type { CommandTable } from '../../../platform/command-table';
import type { ModelsContext } from '../context';
import { setVersionAlias } from './aliases';
import {
  clearModelsFilter,
  copyModelsResourceName,
  filterModels,
  loadMoreModels,
  refreshModels,
  refreshModelsRow,
} from './browse';
import { copyModel } from './copy';
import { deleteModel, deleteModelVersion } from './delete';
import { showModelDetails, showModelIamPolicy, showModelMetrics } from './details';
import { editModel, editVersion } from './edit';
import { exportModel } from './export';
import { importEvaluatedAnnotations, importEvaluation, importSlices } from './imports';
import { undeployModel } from './undeploy';

export const MODELS_COMMANDS: CommandTable<ModelsContext> = {
  'cloudbench.models.refresh': refreshModels,
  'cloudbench.models.refreshRow': refreshModelsRow,
  'cloudbench.models.filter': filterModels,
  'cloudbench.models.clearFilter': clearModelsFilter,
  'cloudbench.models.loadMore': loadMoreModels,
  'cloudbench.models.showDetails': showModelDetails,
  'cloudbench.models.showMetrics': showModelMetrics,
  'cloudbench.models.copyResourceName': copyModelsResourceName,
  'cloudbench.models.showIamPolicy': showModelIamPolicy,
  'cloudbench.models.copyModel': copyModel,
  'cloudbench.models.exportModel': exportModel,
  'cloudbench.models.deleteModel': deleteModel,
  'cloudbench.models.deleteVersion': deleteModelVersion,
  'cloudbench.models.setAlias': setVersionAlias,
  'cloudbench.models.importEvaluation': importEvaluation,
  'cloudbench.models.importSlices': importSlices,
  'cloudbench.models.importEvaluatedAnnotations': importEvaluatedAnnotations,
  'cloudbench.models.editModel': editModel,
  'cloudbench.models.editVersion': editVersion,
  'cloudbench.models.undeploy': undeployModel,
};
