import { strict as assert } from 'node:assert';
import {
  aliasBadges,
  aliasMoveMessage,
  fileTitle,
  locationTooltip,
  modelDescription,
  modelTooltip,
  versionTooltip,
  checkpointDescription,
  filterExpression,
  isDefaultVersion,
  modelContextValue,
  sliceLabel,
  splitVersion,
  validateAlias,
  validateModelId,
  versionContextValue,
  versionDescription,
  versionName,
} from '../../../src/features/models/presentation';
import { arrayFromFile, entriesFromFile, parseImport } from '../../../src/features/models/import-files';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', `file://${__filename}`), 'utf8')) as {
  contributes: { menus: { 'view/item/context': Array<{ command: string; when: string }> } };
};

function menuCommandsFor(contextValue: string): string[] {
  return pkg.contributes.menus['view/item/context']
    .filter((m) => m.when.includes('view == cloudbench.models'))
    .filter((m) => {
      const re = m.when.match(/viewItem =~ \/(.+)\/(?:\s|$)/);
      if (re) return new RegExp(re[1].replace(/\\\\/g, '\\')).test(contextValue);
      const eq = m.when.match(/viewItem == ([\w.]+)/);
      return eq ? eq[1] === contextValue : false;
    })
    .map((m) => m.command);
}

describe('models tree presentation', () => {
  const exportable = {
    name: 'projects/p/locations/l/models/m',
    versionId: '2',
    versionAliases: ['default', 'golden'],
    supportedExportFormats: [{ id: 'tflite' }],
  };
  const plain = { name: 'projects/p/locations/l/models/m@3', versionId: '3', versionAliases: [] };

  it('gives contextValues that the package.json menus match', () => {
    assert.equal(modelContextValue(exportable), 'model.exportable');
    assert.equal(modelContextValue(plain), 'model');
    assert.equal(versionContextValue(exportable), 'modelVersion.exportable');
    assert.equal(versionContextValue(plain), 'modelVersion');
    const model = menuCommandsFor('model');
    assert.ok(
      model.includes('cloudbench.models.copyModel') &&
        model.includes('cloudbench.models.deleteModel') &&
        model.includes('cloudbench.models.showIamPolicy'),
    );
    assert.ok(!model.includes('cloudbench.models.exportModel'));
    assert.ok(menuCommandsFor('model.exportable').includes('cloudbench.models.exportModel'));
    assert.ok(menuCommandsFor('modelVersion.exportable').includes('cloudbench.models.exportModel'));
    const version = menuCommandsFor('modelVersion');
    assert.ok(version.includes('cloudbench.models.deleteVersion') && version.includes('cloudbench.models.setAlias'));
    assert.ok(!version.includes('cloudbench.models.deleteModel'));
    assert.ok(menuCommandsFor('evaluation').includes('cloudbench.models.importSlices'));
    assert.ok(menuCommandsFor('slice').includes('cloudbench.models.importEvaluatedAnnotations'));
    assert.ok(menuCommandsFor('annotation').includes('cloudbench.models.showDetails'));
    assert.ok(menuCommandsFor('checkpoint').includes('cloudbench.models.showDetails'));
    assert.ok(menuCommandsFor('location').includes('cloudbench.models.copyResourceName'));
  });

  it('marks the default version and shows aliases as badges', () => {
    assert.equal(isDefaultVersion(exportable), true);
    assert.equal(aliasBadges(exportable), '@default @golden');
    // The default alias is said once: "@default", not "@default · ★ default".
    assert.equal(versionDescription(exportable).match(/default/g)?.length, 1);
    assert.match(versionDescription(exportable), /^@default @golden/);
    assert.doesNotMatch(versionDescription(plain), /default/);
    assert.equal(versionName(plain), 'projects/p/locations/l/models/m@3');
    assert.deepEqual(splitVersion('a/models/m@golden'), { model: 'a/models/m', version: 'golden' });
  });

  it('labels slices and checkpoints', () => {
    assert.equal(sliceLabel({ slice: { dimension: 'annotationSpec', value: 'cat' } }), 'annotationSpec = cat');
    assert.equal(sliceLabel({ name: 'x/slices/9' }), 'Slice 9');
    assert.equal(
      checkpointDescription({ checkpointId: 'c1', epoch: '3', step: '100' }, 'c1'),
      'epoch 3 · step 100 · ★ default',
    );
  });

  it('validates model IDs and aliases as the API documents them', () => {
    assert.equal(validateModelId(''), undefined);
    assert.equal(validateModelId('my_model-1'), undefined);
    assert.ok(validateModelId('1model'));
    assert.ok(validateModelId('-model'));
    assert.ok(validateModelId('Model'));
    assert.ok(validateModelId('a'.repeat(64)));
    assert.equal(validateAlias('golden'), undefined);
    assert.equal(validateAlias('-golden'), undefined);
    assert.ok(validateAlias('Golden'));
    assert.ok(validateAlias('g'));
    assert.ok(validateAlias('golden-'));
  });

  it('turns plain text into a display-name filter and keeps filter syntax as typed', () => {
    assert.equal(filterExpression(''), undefined);
    assert.equal(filterExpression('churn "v2"'), 'display_name="churn \\"v2\\""');
    assert.equal(filterExpression('labels.team=risk'), 'labels.team=risk');
  });

  it('says a version is deployed and names its endpoints in the tooltip', () => {
    const endpoint = 'projects/p/locations/l/endpoints/123';
    const deployed = { ...plain, deployedModels: [{ endpoint, deployedModelId: '456' }] };
    assert.equal(versionDescription(deployed), 'deployed');
    assert.equal(versionDescription(deployed, new Map([[endpoint, 'churn-online']])), 'deployed on churn-online');
    assert.match(
      versionDescription({ ...exportable, deployedModels: deployed.deployedModels }),
      /^@default @golden · deployed$/,
    );
    assert.doesNotMatch(versionDescription(plain), /deployed/);
    const two = {
      ...plain,
      deployedModels: [
        { endpoint, deployedModelId: '456' },
        { endpoint: 'projects/p/locations/l/endpoints/789', deployedModelId: '1' },
      ],
    };
    assert.match(versionDescription(two), /deployed on 2 endpoints/);
    const tip = versionTooltip(deployed, new Map([[endpoint, 'churn-online']]));
    assert.match(
      tip,
      /Deployed on endpoint:\n {2}• churn-online \(projects\/p\/locations\/l\/endpoints\/123, deployed model 456\)/,
    );
    assert.match(versionTooltip(deployed), /• projects\/p\/locations\/l\/endpoints\/123, deployed model 456/);
    assert.match(versionTooltip(plain), /^Not deployed$/m);
  });

  it("says where a model serves from any version, by the endpoint's display name", () => {
    const endpoint = 'projects/p/locations/l/endpoints/1504042704147557520';
    const names = new Map([[endpoint, 'fraud-online']]);
    const serving = [{ endpoint, versionId: '2', deployedModelId: '77' }];
    assert.equal(modelDescription(plain, serving, names), 'm · deployed on fraud-online');
    const tip = modelTooltip(plain, serving, names);
    assert.match(
      tip,
      /^Deployed:\n {2}• version 2 on fraud-online \(endpoint 1504042704147557520\), deployed model 77$/m,
    );
    assert.doesNotMatch(tip, /Deployed at/);
    // Endpoints not listed: the ID is named as an endpoint, never bare.
    assert.match(modelTooltip(plain, serving), /• version 2 on endpoint 1504042704147557520/);
    assert.match(modelTooltip(plain), /^Not deployed$/m);
    assert.doesNotMatch(modelDescription(plain), /deployed/);
  });

  it("shows a location's display name and labels on hover", () => {
    const tip = locationTooltip(
      { locationId: 'us-central1', displayName: 'Iowa', labels: { 'cloud.googleapis.com/region': 'us-central1' } },
      'projects/p/locations/us-central1',
    );
    assert.equal(
      tip,
      'Iowa (us-central1)\nprojects/p/locations/us-central1\nLabels: cloud.googleapis.com/region=us-central1',
    );
    assert.match(locationTooltip({}, 'projects/p/locations/x'), /^projects\/p\/locations\/x\nLabels: none$/);
  });

  it('says from which version an alias left', () => {
    assert.match(
      aliasMoveMessage('golden', '2', false, '1', ['golden']),
      /^Moved @golden from version 1 to version 2\./,
    );
    assert.match(aliasMoveMessage('golden', '2', false, undefined, ['golden']), /^Set @golden on version 2 \(no other/);
    assert.match(aliasMoveMessage('golden', '2', true, '2', []), /^Removed @golden from version 2\. .*aliases: none/);
    assert.match(aliasMoveMessage('golden', '2', true, '1', []), /did not hold @golden/);
  });

  it('makes tab titles without path separators', () => {
    assert.equal(fileTitle('a/b\\c  ·  IAM policy'), 'a-b-c · IAM policy');
    assert.equal(fileTitle('  '), 'untitled');
  });
});

describe('models import files', () => {
  it('accepts a bare array or the request field, in camelCase or snake_case', () => {
    assert.deepEqual(arrayFromFile([1], 'modelEvaluationSlices', 'f.json'), [1]);
    assert.deepEqual(arrayFromFile({ modelEvaluationSlices: [2] }, 'modelEvaluationSlices', 'f.json'), [2]);
    assert.deepEqual(arrayFromFile({ model_evaluation_slices: [3] }, 'modelEvaluationSlices', 'f.json'), [3]);
    assert.throws(
      () => arrayFromFile({ slices: [] }, 'modelEvaluationSlices', '/x/f.json'),
      /f\.json must hold a JSON array/,
    );
  });

  it('names the file and the entry when an entry is invalid, and refuses empty files', () => {
    const V = 'google.cloud.aiplatform.v1beta1';
    assert.equal(
      parseImport(
        `${V}.EvaluatedAnnotation`,
        { values: [{ type: 'TRUE_POSITIVE', predictions: [{ label: 'cat' }] }], arrayKey: '' },
        'a.json',
      ).length,
      1,
    );
    assert.throws(
      () =>
        parseImport(
          `${V}.EvaluatedAnnotation`,
          { values: [{ type: 'TRUE_POSITIVE' }, { typo: 1 }], arrayKey: '' },
          '/d/a.json',
        ),
      /a\.json \[1\]\.typo: unknown field/,
    );
    assert.throws(
      () => parseImport(`${V}.EvaluatedAnnotation`, { values: [], arrayKey: '' }, '/d/a.json'),
      /no entries/,
    );
  });

  it('points into the file the way it is written: a single object by its own fields, an array under its key', () => {
    const V = 'google.cloud.aiplatform.v1beta1';
    assert.throws(
      () => parseImport(`${V}.ModelEvaluation`, { single: { metricsSchemaUri: 7 } }, '/d/eval.json'),
      (err: Error) => /^eval\.json metricsSchemaUri: expected a string/.test(err.message) && !/\[0\]/.test(err.message),
    );
    const entries = entriesFromFile(
      { model_evaluation_slices: [{ metricsSchemaUri: 'gs://x' }, { bogus: 1 }] },
      'modelEvaluationSlices',
      'f.json',
    );
    assert.throws(
      () => parseImport(`${V}.ModelEvaluationSlice`, entries, '/d/f.json'),
      /f\.json model_evaluation_slices\[1\]\.bogus: unknown field/,
    );
  });
});
