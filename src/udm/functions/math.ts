// math: numeric functions (numbers arrive as numbers or as 64-bit integers in strings).
import { defineFamily, fn, rulesOnly } from './types';
import { num } from './values';

export const MATH = defineFamily('math', [
  fn(
    'math.abs(numericExpression: NUMBER): NUMBER',
    '300 < math.abs($e1.metadata.event_timestamp.seconds - 1643687343)',
    ([n]) => Math.abs(num(n)),
  ),
  fn('math.ceil(number: FLOAT): INT', 'math.ceil(2.000000) = 2', ([n]) => Math.ceil(num(n))),
  fn('math.floor(float_val: FLOAT): INT', 'math.floor(1.234568) = 1', ([n]) => Math.floor(num(n))),
  rulesOnly(
    'math.geo_distance(longitude1: FLOAT, latitude1: FLOAT, longitude2: FLOAT, latitude2: FLOAT): FLOAT',
    'math.geo_distance(-122.020287, 37.407574, -122.021810, 37.407574) = 134.564318',
  ),
  fn(
    'math.is_increasing(num1: INT|FLOAT, num2: INT|FLOAT, num3: INT|FLOAT): BOOL',
    'math.is_increasing(1716769112, 1716769113, 1716769114) = true',
    ([a, b, c]) => num(a) < num(b) && num(b) < num(c),
  ),
  fn('math.log(numericExpression: NUMBER): NUMBER', 'math.log($e1.network.sent_bytes) > 20', ([n]) => Math.log(num(n))),
  fn(
    'math.pow(base: INT|FLOAT, exponent: INT|FLOAT): FLOAT',
    'math.pow(2.200000, 3) // 10.648',
    ([a, b]) => num(a) ** num(b),
  ),
  fn('math.random(): FLOAT', 'if(math.random() >= 0 and math.random() < 1) = true', () => Math.random()),
  fn(
    'math.round(numericExpression: NUMBER, decimalPlaces?: INT): NUMBER',
    'math.round(1.2567, 2) // returns 1.25',
    ([n, dp]) => {
      const f = 10 ** Math.max(0, Math.trunc(num(dp ?? 0)));
      const x = num(n) * f;
      // half away from zero, as SQL ROUND does
      return (Math.sign(x) * Math.round(Math.abs(x))) / f;
    },
    {
      where: 'Search',
      notes: 'Search only. decimalPlaces is optional per the samples (math.round(10.7) // returns 11).',
    },
  ),
  fn('math.sqrt(number: INT|FLOAT): FLOAT', 'math.sqrt(3) = 1.732051', ([n]) => Math.sqrt(num(n))),
]);
