// The restriction editor form (browser side). Every value goes into the page as text; messages from
// the extension are checked before use. Validation and the diff come from the same core modules
// the extension uses, so the form and the extension never disagree about what is valid.
import '../shared/theme.css';
import './style.css';
import {
  describeChanges,
  diffRestrictions,
  formatApiTargetLines,
  parseApiTargetLines,
  describeRestrictions,
} from '../../core/apikeys/describe';
import { checkRequest, type SimulatedRequest } from '../../core/apikeys/check';
import { parseToWebview, type EditorKey, type FromWebview } from '../../core/apikeys/messages';
import type { AndroidApplication, Restrictions } from '../../core/apikeys/types';
import { validateRestrictions } from '../../core/apikeys/validation';
import {
  lineProblem,
  parseAndroidAppLine,
  placeProblem,
  inFormOrder,
  type FormField,
  type PlacedProblem,
} from '../../core/apikeys/form';
import { el } from '../shared/dom';
import { pageApi } from '../shared/page-api';

const vscode = pageApi<FromWebview>();

type AppKind = 'none' | 'browser' | 'server' | 'android' | 'ios';

interface ListField extends FormField {
  kind: Exclude<AppKind, 'none'>;
  label: string;
  hint: string;
  placeholder: string;
}

/** Problems that belong to no list: the choice of application restriction, or API targets. */
const APPLICATION_FIELD: FormField = { id: 'application', pathPrefix: '', name: 'Application restrictions' };
const API_TARGETS_FIELD: FormField = { id: 'api-targets', pathPrefix: 'apiTargets', name: 'API restrictions' };

const LIST_FIELDS: ListField[] = [
  {
    kind: 'browser',
    id: 'referrers',
    name: 'Website referrers',
    label: 'Website referrers (one per line)',
    pathPrefix: 'browserKeyRestrictions.allowedReferrers',
    hint: '"*" may replace the first host label (*.example.com) or end the path (example.com/*), never sit inside a host name. A port limits the entry to that port. To allow a whole site, list both example.com/* and *.example.com/*.',
    placeholder: 'example.com/*\n*.example.com/*',
  },
  {
    kind: 'server',
    id: 'ips',
    name: 'IP addresses',
    label: 'IP addresses and ranges (one per line)',
    pathPrefix: 'serverKeyRestrictions.allowedIps',
    hint: 'External IPv4 or IPv6 addresses, or CIDR ranges such as 104.133.8.0/24. Internal addresses and localhost are not supported.',
    placeholder: '104.133.8.78\n2001:4860::/32',
  },
  {
    kind: 'android',
    id: 'android-apps',
    name: 'Android apps',
    label: 'Android apps (one per line: package name, then SHA-1 fingerprint)',
    pathPrefix: 'androidKeyRestrictions.allowedApplications',
    hint: 'The SHA-1 certificate fingerprint is 20 bytes: 40 hex digits, with or without colons. Callers send X-Android-Package and X-Android-Cert.',
    placeholder: 'com.example.app DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09',
  },
  {
    kind: 'ios',
    id: 'bundle-ids',
    name: 'iOS bundle IDs',
    label: 'iOS bundle IDs (one per line)',
    pathPrefix: 'iosKeyRestrictions.allowedBundleIds',
    hint: 'Bundle IDs such as com.example.app. Callers send X-Ios-Bundle-Identifier.',
    placeholder: 'com.example.app',
  },
];

/** The restriction each list kind makes of its lines (Android's read into applications first). */
const LIST_RESTRICTIONS: Record<ListField['kind'], (values: string[], apps: AndroidApplication[]) => Restrictions> = {
  browser: (values) => ({ browserKeyRestrictions: { allowedReferrers: values } }),
  server: (values) => ({ serverKeyRestrictions: { allowedIps: values } }),
  ios: (values) => ({ iosKeyRestrictions: { allowedBundleIds: values } }),
  android: (_values, apps) => ({ androidKeyRestrictions: { allowedApplications: apps } }),
};

const APP_CHOICES: Array<[AppKind, string]> = [
  ['none', 'None'],
  ['browser', 'Websites'],
  ['server', 'IP addresses'],
  ['android', 'Android apps'],
  ['ios', 'iOS apps'],
];

// ---------------------------------------------------------------------------------------------
// Small DOM helpers: elements are created with text only.

function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`missing #${id}`);
  return node as T;
}

function setList(list: HTMLElement, items: string[]): void {
  list.replaceChildren(...items.map((item) => el('li', {}, item)));
}

// ---------------------------------------------------------------------------------------------
// State

let base: EditorKey | undefined;
let conflictPending = false;
let saving = false;

function lines(id: string): Array<{ text: string; line: number }> {
  return byId<HTMLTextAreaElement>(id)
    .value.split(/\r?\n/)
    .map((text, i) => ({ text: text.trim(), line: i + 1 }))
    .filter((l) => l.text.length > 0);
}

function selectedApp(): AppKind {
  const checked = document.querySelector<HTMLInputElement>('input[name="app"]:checked');
  return (checked?.value as AppKind | undefined) ?? 'none';
}

function apiRestricted(): boolean {
  return byId<HTMLInputElement>('api-restricted').checked;
}

/**
 * The restrictions the form describes, where each list entry sits in its text box, and the lines
 * that could not be read (reported, never dropped or trimmed into something else).
 */
function readForm(): { restrictions: Restrictions; lineOf: Map<string, number[]>; unreadable: FieldProblem[] } {
  const restrictions: Restrictions = {};
  const lineOf = new Map<string, number[]>();
  const unreadable: FieldProblem[] = [];
  const kind = selectedApp();
  const field = LIST_FIELDS.find((f) => f.kind === kind);
  if (field) {
    let entries = lines(field.id);
    const apps: AndroidApplication[] = [];
    if (kind === 'android') {
      entries = entries.filter((e) => {
        const parsed = parseAndroidAppLine(e.text);
        if (parsed.ok) apps.push(parsed.value);
        else unreadable.push({ fieldId: field.id, text: lineProblem(field, e.line, parsed.message), line: e.line });
        return parsed.ok;
      });
    }
    lineOf.set(
      field.pathPrefix,
      entries.map((e) => e.line),
    );
    Object.assign(
      restrictions,
      LIST_RESTRICTIONS[field.kind](
        entries.map((e) => e.text),
        apps,
      ),
    );
  }
  if (apiRestricted()) {
    const entries = lines('api-targets');
    lineOf.set(
      'apiTargets',
      entries.map((e) => e.line),
    );
    restrictions.apiTargets = parseApiTargetLines(entries.map((e) => e.text).join('\n'));
  }
  return { restrictions, lineOf, unreadable };
}

type FieldProblem = PlacedProblem;

function currentProblems(): { problems: FieldProblem[]; restrictions: Restrictions } {
  const { restrictions, lineOf, unreadable } = readForm();
  const problems = inFormOrder(
    [
      ...unreadable,
      ...validateRestrictions(restrictions, { serviceAccountBound: !!base?.serviceAccountEmail }).map((p) =>
        placeProblem(p, [...LIST_FIELDS, API_TARGETS_FIELD], lineOf, APPLICATION_FIELD),
      ),
    ],
    [APPLICATION_FIELD.id, ...LIST_FIELDS.map((f) => f.id), API_TARGETS_FIELD.id],
  );
  if (apiRestricted() && (restrictions.apiTargets ?? []).length === 0) {
    problems.push({
      fieldId: 'api-targets',
      text: lineProblem(
        API_TARGETS_FIELD,
        undefined,
        'Add at least one API (service name such as translate.googleapis.com), or choose "Don\'t restrict key".',
      ),
    });
  }
  return { problems, restrictions };
}

// ---------------------------------------------------------------------------------------------
// Rendering

function update(): void {
  if (!base) return;
  const kind = selectedApp();
  for (const field of LIST_FIELDS) byId(`${field.id}-section`).hidden = field.kind !== kind;
  byId('api-section').hidden = !apiRestricted();

  const { problems, restrictions } = currentProblems();
  const fieldIds = [...LIST_FIELDS.map((f) => f.id), 'api-targets', 'application'];
  for (const id of fieldIds) {
    const mine = problems.filter((p) => p.fieldId === id).map((p) => p.text);
    const errors = byId(`${id}-errors`);
    setList(errors, mine);
    errors.hidden = mine.length === 0;
    const input = document.getElementById(id);
    if (input instanceof HTMLTextAreaElement) {
      if (mine.length > 0) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
  }
  const summary = byId('problems');
  setList(
    summary,
    problems.map((p) => p.text),
  );
  byId('problems-section').hidden = problems.length === 0;

  const changes = describeChanges(diffRestrictions(base.restrictions, restrictions));
  setList(byId('diff'), changes.length > 0 ? changes : ['No changes yet.']);
  const save = byId<HTMLButtonElement>('save');
  save.disabled = saving || conflictPending || problems.length > 0 || changes.length === 0;
  save.title = conflictPending
    ? 'Choose how to continue after the conflict first.'
    : problems.length > 0
      ? 'Fix the listed problems first; nothing is sent while any remain.'
      : changes.length === 0
        ? 'Nothing changed.'
        : "Replace the key's restrictions with the ones above.";
  updateTry(restrictions);
  vscode.setState({ keyName: base.name });
}

const TRY_FIELDS: Array<[string, string, string]> = [
  ['try-referrer', 'Referer (page URL)', 'https://www.example.com/page'],
  ['try-ip', 'Caller IP address', '104.133.8.78'],
  ['try-android-package', 'X-Android-Package', 'com.example.app'],
  ['try-android-cert', 'X-Android-Cert', 'DA:39:A3:…'],
  ['try-ios-bundle', 'X-Ios-Bundle-Identifier', 'com.example.app'],
  ['try-service', 'Service', 'translate.googleapis.com'],
  ['try-method', 'Method', 'TranslateText'],
];

const TRY_ROWS_FOR: Record<AppKind, string[]> = {
  none: [],
  browser: ['try-referrer'],
  server: ['try-ip'],
  android: ['try-android-package', 'try-android-cert'],
  ios: ['try-ios-bundle'],
};

/** The simulator on the draft: the same matching rules as Check Request, with nothing sent anywhere. */
function updateTry(restrictions: Restrictions): void {
  const kind = selectedApp();
  const visible = new Set([...TRY_ROWS_FOR[kind], 'try-service', 'try-method']);
  for (const [id] of TRY_FIELDS) byId(`${id}-row`).hidden = !visible.has(id);
  const value = (id: string): string | undefined =>
    visible.has(id) ? byId<HTMLInputElement>(id).value.trim() || undefined : undefined;
  const request: SimulatedRequest = {};
  const set = <K extends keyof SimulatedRequest>(key: K, id: string): void => {
    const v = value(id);
    if (v !== undefined) request[key] = v;
  };
  set('referrer', 'try-referrer');
  set('callerIp', 'try-ip');
  set('androidPackage', 'try-android-package');
  set('androidCert', 'try-android-cert');
  set('iosBundleId', 'try-ios-bundle');
  set('service', 'try-service');
  set('method', 'try-method');
  const result = checkRequest(restrictions, request);
  const verdict = byId('try-result');
  verdict.textContent = `${result.allowed ? 'Accepted' : 'Refused'}: ${result.decidedBy}`;
  verdict.className = result.allowed ? 'allowed' : 'refused';
  setList(
    byId('try-steps'),
    result.steps.map(
      (step) =>
        `${step.passed ? 'Pass' : 'Fail'} (${step.rule === 'application' ? 'application' : 'API'}): ${step.explanation}`,
    ),
  );
  setList(byId('try-headers'), [
    'X-Goog-Api-Key: <API_KEY>',
    ...result.requiredHeaders.map(
      (h) => `${h.name}: ${h.value}${h.neutralName ? `   (${h.neutralName} in the service description)` : ''}`,
    ),
  ]);
}

function fillForm(key: EditorKey): void {
  const r = key.restrictions;
  let kind: AppKind = 'none';
  if (r.browserKeyRestrictions) kind = 'browser';
  else if (r.serverKeyRestrictions) kind = 'server';
  else if (r.androidKeyRestrictions) kind = 'android';
  else if (r.iosKeyRestrictions) kind = 'ios';
  byId<HTMLInputElement>(`app-${kind}`).checked = true;
  byId<HTMLTextAreaElement>('referrers').value = (r.browserKeyRestrictions?.allowedReferrers ?? []).join('\n');
  byId<HTMLTextAreaElement>('ips').value = (r.serverKeyRestrictions?.allowedIps ?? []).join('\n');
  byId<HTMLTextAreaElement>('android-apps').value = (r.androidKeyRestrictions?.allowedApplications ?? [])
    .map((a) => `${a.packageName ?? ''} ${a.sha1Fingerprint ?? ''}`)
    .join('\n');
  byId<HTMLTextAreaElement>('bundle-ids').value = (r.iosKeyRestrictions?.allowedBundleIds ?? []).join('\n');
  const targets = r.apiTargets ?? [];
  byId<HTMLInputElement>(targets.length > 0 ? 'api-restricted' : 'api-none').checked = true;
  byId<HTMLTextAreaElement>('api-targets').value = formatApiTargetLines(targets);
}

function setStatus(text: string): void {
  byId('status').textContent = text;
}

function showHeader(key: EditorKey): void {
  byId('title').textContent = `Restrictions of ${key.displayName || key.keyId}`;
  byId('key-name').textContent = key.name;
  const bound = byId('bound-note');
  bound.hidden = !key.serviceAccountEmail;
  bound.textContent = key.serviceAccountEmail
    ? `This key is bound to the service account ${key.serviceAccountEmail}: only IP address restrictions are available for it, and it works only with aiplatform.googleapis.com.`
    : '';
  for (const [kind] of APP_CHOICES) {
    byId<HTMLInputElement>(`app-${kind}`).disabled = !!key.serviceAccountEmail && kind !== 'none' && kind !== 'server';
  }
}

/** The notice of an edit that met a newer version of the key on the server, with the way out. */
function conflictSection(): HTMLElement {
  const conflict = el('section', { id: 'conflict', class: 'conflict', role: 'alert', hidden: '' });
  const conflictActions = el('div', { class: 'actions' });
  conflictActions.append(
    el('button', { id: 'use-server', type: 'button' }, "Start over from the server's version"),
    el('button', { id: 'keep-mine', type: 'button', class: 'secondary' }, 'Keep my edits and review them again'),
  );
  conflict.append(
    el('h2', {}, 'The key changed on the server'),
    el('p', { id: 'conflict-message' }),
    el('h3', {}, 'Current server restrictions'),
    el('ul', { id: 'server-state' }),
    conflictActions,
  );
  return conflict;
}

/** The application restriction: one type, and the list that type takes. */
function applicationFieldset(): HTMLElement {
  const application = el('fieldset', { id: 'application' });
  application.append(el('legend', {}, 'Application restriction (at most one type)'));
  const radios = el('div', { class: 'radios', role: 'radiogroup', 'aria-label': 'Application restriction' });
  for (const [kind, label] of APP_CHOICES) {
    const wrapper = el('label', { for: `app-${kind}` });
    wrapper.append(
      el('input', { type: 'radio', name: 'app', id: `app-${kind}`, value: kind }),
      document.createTextNode(` ${label}`),
    );
    radios.append(wrapper);
  }
  application.append(radios, el('ul', { id: 'application-errors', class: 'errors', hidden: '' }));
  for (const field of LIST_FIELDS) {
    const section = el('div', { id: `${field.id}-section`, class: 'list', hidden: '' });
    section.append(
      el('label', { for: field.id }, field.label),
      el('p', { id: `${field.id}-hint`, class: 'hint' }, field.hint),
      el('textarea', {
        id: field.id,
        rows: '6',
        spellcheck: 'false',
        placeholder: field.placeholder,
        'aria-describedby': `${field.id}-hint ${field.id}-errors`,
      }),
      el('ul', { id: `${field.id}-errors`, class: 'errors', role: 'alert', hidden: '' }),
    );
    application.append(section);
  }
  return application;
}

/** The API restriction: none, or the services (and methods) the key may call. */
function apiFieldset(): HTMLElement {
  const api = el('fieldset', { id: 'api' });
  api.append(el('legend', {}, 'API restriction'));
  const apiRadios = el('div', { class: 'radios', role: 'radiogroup', 'aria-label': 'API restriction' });
  for (const [id, label] of [
    ['api-none', "Don't restrict key"],
    ['api-restricted', 'Restrict key to these APIs'],
  ] as const) {
    const wrapper = el('label', { for: id });
    wrapper.append(el('input', { type: 'radio', name: 'api', id, value: id }), document.createTextNode(` ${label}`));
    apiRadios.append(wrapper);
  }
  const apiSection = el('div', { id: 'api-section', class: 'list', hidden: '' });
  apiSection.append(
    el('label', { for: 'api-targets' }, 'APIs (one per line: service name, then optional methods)'),
    el(
      'p',
      { id: 'api-targets-hint', class: 'hint' },
      'Methods are fully qualified names or short names; "*" is allowed only at the end (Get*). No methods: every method of the service.',
    ),
    el('textarea', {
      id: 'api-targets',
      rows: '4',
      spellcheck: 'false',
      placeholder: 'translate.googleapis.com Get* TranslateText',
      'aria-describedby': 'api-targets-hint api-targets-errors',
    }),
    el('ul', { id: 'api-targets-errors', class: 'errors', role: 'alert', hidden: '' }),
  );
  api.append(apiRadios, apiSection);
  return api;
}

/** A request tried against the restrictions being edited, before they are saved. */
function tryDetails(): HTMLElement {
  const trySection = el('details', { id: 'try' });
  trySection.append(el('summary', {}, 'Try a request against these restrictions (before saving)'));
  const tryGrid = el('div', { class: 'try-grid' });
  for (const [id, label, placeholder] of TRY_FIELDS) {
    const wrapper = el('div', { id: `${id}-row`, class: 'try-row' });
    wrapper.append(
      el('label', { for: id }, label),
      el('input', { id, type: 'text', spellcheck: 'false', placeholder }),
    );
    tryGrid.append(wrapper);
  }
  trySection.append(
    tryGrid,
    el('p', { id: 'try-result', role: 'status', 'aria-live': 'polite' }),
    el('ul', { id: 'try-steps' }),
    el('h3', {}, 'Headers the caller sends'),
    el('ul', { id: 'try-headers', class: 'mono' }),
  );
  return trySection;
}

function build(): void {
  const app = byId('app');
  const header = el('header');
  header.append(
    el('h1', { id: 'title' }),
    el('p', { id: 'key-name', class: 'muted' }),
    el('p', { id: 'bound-note', class: 'note', hidden: '' }),
  );

  const conflict = conflictSection();

  const application = applicationFieldset();

  const api = apiFieldset();

  const problems = el('section', { id: 'problems-section', class: 'problems', hidden: '' });
  problems.append(el('h2', {}, 'Problems (nothing is sent while any remain)'), el('ul', { id: 'problems' }));

  const changes = el('section', { id: 'changes' });
  changes.append(
    el('h2', {}, 'What will change'),
    el(
      'p',
      { class: 'hint' },
      'Lists are replaced, not merged: after saving, the key has exactly the entries above, and any list not shown is removed.',
    ),
    el('ul', { id: 'diff' }),
  );

  const trySection = tryDetails();

  const actions = el('div', { class: 'actions' });
  actions.append(
    el('button', { id: 'save', type: 'button', disabled: '' }, 'Save Restrictions'),
    el('button', { id: 'revert', type: 'button', class: 'secondary' }, 'Revert to Current'),
    el('button', { id: 'cancel', type: 'button', class: 'secondary' }, 'Close'),
  );

  app.replaceChildren(
    header,
    conflict,
    application,
    api,
    problems,
    changes,
    trySection,
    actions,
    el('p', { id: 'status', role: 'status', 'aria-live': 'polite' }),
  );

  app.addEventListener('input', () => update());
  app.addEventListener('change', () => update());
  byId('save').addEventListener('click', () => save());
  byId('revert').addEventListener('click', () => {
    if (!base) return;
    fillForm(base);
    setStatus("Reverted to the key's current restrictions.");
    update();
  });
  byId('cancel').addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));
  byId('use-server').addEventListener('click', () => resolveConflict(true));
  byId('keep-mine').addEventListener('click', () => resolveConflict(false));
  document.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      save();
    }
  });
}

function save(): void {
  if (!base || saving || conflictPending) return;
  const { problems, restrictions } = currentProblems();
  if (problems.length > 0) {
    setStatus('Fix the listed problems first; nothing was sent.');
    update();
    return;
  }
  vscode.postMessage({ type: 'save', restrictions, etag: base.etag });
}

function resolveConflict(useServer: boolean): void {
  if (!base) return;
  conflictPending = false;
  byId('conflict').hidden = true;
  if (useServer) {
    fillForm(base);
    setStatus("The form now shows the server's restrictions. Make your change again and save.");
  } else {
    setStatus(
      'Your edits are kept. "What will change" now compares them with the server\'s newer version; review and save again.',
    );
  }
  update();
  const target = useServer
    ? document.querySelector<HTMLInputElement>('input[name="app"]:checked')
    : byId<HTMLButtonElement>('save');
  target?.focus();
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseToWebview(event.data);
  if (!message) return;
  switch (message.type) {
    case 'init':
      base = message.key;
      showHeader(base);
      fillForm(base);
      byId('app').setAttribute('aria-busy', 'false');
      setStatus('');
      update();
      break;
    case 'saving':
      saving = true;
      setStatus('Saving…');
      update();
      break;
    case 'saved':
      saving = false;
      base = message.key;
      showHeader(base);
      fillForm(base);
      setStatus(`Saved. ${message.changes.join(' ')}`);
      update();
      break;
    case 'conflict':
      saving = false;
      conflictPending = true;
      base = message.key;
      showHeader(base);
      byId('conflict-message').textContent = message.message;
      setList(byId('server-state'), describeRestrictions(base.restrictions));
      byId('conflict').hidden = false;
      setStatus('Not saved: the key changed on the server.');
      update();
      byId('use-server').focus();
      break;
    case 'error':
      saving = false;
      setStatus(message.message);
      if (message.problems.length > 0)
        setList(
          byId('problems'),
          message.problems.map((p) => p.message),
        );
      byId('problems-section').hidden = message.problems.length === 0;
      update();
      break;
  }
});

build();
vscode.postMessage({ type: 'ready' });
