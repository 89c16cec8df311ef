// math: numeric functions (numbers arrive as numbers or as 64-bit integers in strings).
import { defineFamily, optional, param } from './types';
import { num } from './values';

export const MATH = defineFamily('math', [
  {
    name: 'math.abs',
    params: [param('numericExpression', 'NUMBER')],
    returns: 'NUMBER',
    where: 'Search, Rules',
    example: '300 < math.abs($e1.metadata.event_timestamp.seconds - 1643687343)',
    evaluate: ([n]) => Math.abs(num(n)),
  },
  {
    name: 'math.ceil',
    params: [param('number', 'FLOAT')],
    returns: 'INT',
    where: 'Search, Rules',
    example: 'math.ceil(2.000000) = 2',
    evaluate: ([n]) => Math.ceil(num(n)),
  },
  {
    name: 'math.floor',
    params: [param('float_val', 'FLOAT')],
    returns: 'INT',
    where: 'Search, Rules',
    example: 'math.floor(1.234568) = 1',
    evaluate: ([n]) => Math.floor(num(n)),
  },
  {
    name: 'math.geo_distance',
    params: [
      param('longitude1', 'FLOAT'),
      param('latitude1', 'FLOAT'),
      param('longitude2', 'FLOAT'),
      param('latitude2', 'FLOAT'),
    ],
    returns: 'FLOAT',
    where: 'Rules only',
    example: 'math.geo_distance(-122.020287, 37.407574, -122.021810, 37.407574) = 134.564318',
  },
  {
    name: 'math.is_increasing',
    params: [param('num1', 'INT', 'FLOAT'), param('num2', 'INT', 'FLOAT'), param('num3', 'INT', 'FLOAT')],
    returns: 'BOOL',
    where: 'Search, Rules',
    example: 'math.is_increasing(1716769112, 1716769113, 1716769114) = true',
    evaluate: ([a, b, c]) => num(a) < num(b) && num(b) < num(c),
  },
  {
    name: 'math.log',
    params: [param('numericExpression', 'NUMBER')],
    returns: 'NUMBER',
    where: 'Search, Rules',
    example: 'math.log($e1.network.sent_bytes) > 20',
    evaluate: ([n]) => Math.log(num(n)),
  },
  {
    name: 'math.pow',
    params: [param('base', 'INT', 'FLOAT'), param('exponent', 'INT', 'FLOAT')],
    returns: 'FLOAT',
    where: 'Search, Rules',
    example: 'math.pow(2.200000, 3) // 10.648',
    evaluate: ([a, b]) => num(a) ** num(b),
  },
  {
    name: 'math.random',
    params: [],
    returns: 'FLOAT',
    where: 'Search, Rules',
    example: 'if(math.random() >= 0 and math.random() < 1) = true',
    evaluate: () => Math.random(),
  },
  {
    name: 'math.round',
    params: [param('numericExpression', 'NUMBER'), optional('decimalPlaces', 'INT')],
    returns: 'NUMBER',
    where: 'Search',
    example: 'math.round(1.2567, 2) // returns 1.25',
    notes: 'Search only. decimalPlaces is optional per the samples (math.round(10.7) // returns 11).',
    evaluate: ([n, dp]) => {
      const f = 10 ** Math.max(0, Math.trunc(num(dp ?? 0)));
      const x = num(n) * f;
      // half away from zero, as SQL ROUND does
      return (Math.sign(x) * Math.round(Math.abs(x))) / f;
    },
  },
  {
    name: 'math.sqrt',
    params: [param('number', 'INT', 'FLOAT')],
    returns: 'FLOAT',
    where: 'Search, Rules',
    example: 'math.sqrt(3) = 1.732051',
    evaluate: ([n]) => Math.sqrt(num(n)),
  },
]);
