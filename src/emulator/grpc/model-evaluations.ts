// ModelService RPCs of model evaluations and their slices: import, read and list.
import { parseModelVersionName, parseSliceName } from '../../core/names';
import { AIPLATFORM, compactMessage } from '../../core/proto';
import { requireField, type ServiceHandlers } from './context';
import { invalidArgument, notFound } from './errors';
import { compileFilter } from './filter';
import type { ModelEvaluationSliceInput, ModelServiceRequests } from './messages';
import { type EvaluationRecord, type SliceRecord } from './store';
import { applyReadMask, paginate, parseName } from './util';
import { getModelOf, nameOf, evaluationMessage, findEvaluation, sliceMessage } from './model-rules';

export const modelEvaluationHandlers = {
  ImportModelEvaluation(req, { store, clock }) {
    const n = parseName('parent', req.parent, parseModelVersionName);
    const model = getModelOf(store, n);
    const version = store.resolveVersion(model, n.version, 'default');
    if (!req.modelEvaluation)
      throw invalidArgument('model_evaluation is required.', [{ field: 'model_evaluation', description: 'required' }]);
    const {
      name: _name,
      createTime: _createTime,
      ...message
    } = compactMessage(`${AIPLATFORM}.ModelEvaluation`, req.modelEvaluation);
    const id = store.nextId('evaluation');
    const evaluation: EvaluationRecord = {
      id,
      versionId: version.versionId,
      createTime: clock.now(),
      message,
      slices: new Map(),
    };
    model.evaluations.set(id, evaluation);
    return evaluationMessage(model, evaluation);
  },

  BatchImportModelEvaluationSlices(req, { store, clock }) {
    const { model, evaluation } = findEvaluation(store, req.parent, 'parent');
    const slices = req.modelEvaluationSlices ?? [];
    requireField(slices, 'model_evaluation_slices');
    const names: string[] = [];
    slices.forEach((slice, i) => {
      if (!slice.slice?.dimension) {
        throw invalidArgument(`model_evaluation_slices[${i}].slice.dimension is required.`, [
          { field: `model_evaluation_slices[${i}].slice.dimension`, description: 'required' },
        ]);
      }
    });
    for (const slice of slices) {
      const {
        name: _name,
        createTime: _createTime,
        ...message
      } = compactMessage(`${AIPLATFORM}.ModelEvaluationSlice`, slice);
      const id = store.nextId('slice');
      evaluation.slices.set(id, { id, createTime: clock.now(), message, annotations: [] });
      names.push(`${nameOf(model)}/evaluations/${evaluation.id}/slices/${id}`);
    }
    return { importedModelEvaluationSlices: names };
  },

  BatchImportEvaluatedAnnotations(req, { store }) {
    const n = parseName('parent', req.parent, parseSliceName);
    const model = getModelOf(store, n);
    const evaluation = model.evaluations.get(n.evaluation);
    const slice = evaluation?.slices.get(n.slice);
    if (!slice)
      throw notFound(
        `ModelEvaluationSlice ${req.parent} does not exist.`,
        'aiplatform.googleapis.com/ModelEvaluationSlice',
        req.parent,
      );
    const annotations = req.evaluatedAnnotations ?? [];
    requireField(annotations, 'evaluated_annotations');
    slice.annotations.push(...annotations.map((a) => compactMessage(`${AIPLATFORM}.EvaluatedAnnotation`, a)));
    return { importedEvaluatedAnnotationsCount: annotations.length };
  },

  GetModelEvaluation(req, { store }) {
    const { model, evaluation } = findEvaluation(store, req.name, 'name');
    return evaluationMessage(model, evaluation);
  },

  ListModelEvaluations(req, { store }) {
    const n = parseName('parent', req.parent, parseModelVersionName);
    const model = getModelOf(store, n);
    const version = store.resolveVersion(model, n.version, 'default');
    const predicate = compileFilter<EvaluationRecord>(
      req.filter,
      (e, path) =>
        path[0] === 'display_name' || path[0] === 'displayName'
          ? { kind: 'scalar', value: typeof e.message.displayName === 'string' ? e.message.displayName : '' }
          : undefined,
      (path) => path.length === 1 && (path[0] === 'display_name' || path[0] === 'displayName'),
    );
    const evaluations = [...model.evaluations.values()]
      .filter((e) => e.versionId === version.versionId)
      .filter(predicate)
      .sort((a, b) => b.createTime - a.createTime || (a.id < b.id ? -1 : 1));
    const { page, nextPageToken } = paginate(evaluations, req, [
      'ListModelEvaluations',
      nameOf(model),
      version.versionId,
      req.filter ?? '',
    ]);
    return {
      modelEvaluations: page.map((e) => applyReadMask(evaluationMessage(model, e), req.readMask)),
      nextPageToken,
    };
  },

  GetModelEvaluationSlice(req, { store }) {
    const n = parseName('name', req.name, parseSliceName);
    const model = getModelOf(store, n);
    const evaluation = model.evaluations.get(n.evaluation);
    const slice = evaluation?.slices.get(n.slice);
    if (!evaluation || !slice)
      throw notFound(
        `ModelEvaluationSlice ${req.name} does not exist.`,
        'aiplatform.googleapis.com/ModelEvaluationSlice',
        req.name,
      );
    return sliceMessage(model, evaluation, slice.id);
  },

  ListModelEvaluationSlices(req, { store }) {
    const { model, evaluation } = findEvaluation(store, req.parent, 'parent');
    const predicate = compileFilter<SliceRecord>(
      req.filter,
      (s, path) =>
        path.join('.') === 'slice.dimension'
          ? { kind: 'scalar', value: (s.message as ModelEvaluationSliceInput).slice?.dimension ?? '' }
          : undefined,
      (path) => path.join('.') === 'slice.dimension',
    );
    const slices = [...evaluation.slices.values()].filter(predicate);
    const { page, nextPageToken } = paginate(slices, req, ['ListModelEvaluationSlices', req.parent, req.filter ?? '']);
    return {
      modelEvaluationSlices: page.map((s) => applyReadMask(sliceMessage(model, evaluation, s.id), req.readMask)),
      nextPageToken,
    };
  },
} satisfies Partial<ServiceHandlers<ModelServiceRequests>>;
