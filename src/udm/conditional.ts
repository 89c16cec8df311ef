import type { FunctionDef } from './functions';

/**
 * `if(...)`, YARA-L's conditional: `if(condition)` is the condition's truth, as in the documented
 * `if(math.random() >= 0 and math.random() < 1) = true`; `if(condition, then, else)` is one of two
 * values, as in an outcome's `sum(if(network.sent_bytes > 1000000, 1, 0))`. Its first argument is a
 * condition rather than a value, so the parser, checker and evaluator treat it apart from the
 * function families; this entry gives hover, signature help and completion what they show.
 */
export const IF_FUNCTION: FunctionDef = {
  name: 'if',
  params: [
    { name: 'condition', type: 'bool', googleType: 'BOOL', doc: 'a condition, written as in the filter' },
    { name: 'then', type: 'any', optional: true, doc: 'the value when the condition holds' },
    { name: 'else', type: 'any', optional: true, doc: 'the value otherwise (give both or neither)' },
  ],
  returns: 'any',
  googleReturns: 'BOOL, or the type of then/else',
  doc: 'With one argument, the truth of the condition; with three, then when the condition holds and else otherwise.',
  search: true,
  where: 'Search, Rules',
  example: 'if(math.random() >= 0 and math.random() < 1) = true',
  impl: () => undefined,
};

export function findConditional(name: string): FunctionDef | undefined {
  return name.length === 2 && name.toLowerCase() === 'if' ? IF_FUNCTION : undefined;
}
