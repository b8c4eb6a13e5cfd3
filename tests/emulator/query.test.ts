import { describe, expect, it } from 'vitest';
import { RestError } from '../../emulator/rest/errors.js';
import { parsePrefer, parseQuery, parseRangeHeader } from '../../emulator/rest/query.js';

const parse = (qs: string) => parseQuery(new URLSearchParams(qs));
const failure = (qs: string) => {
  try {
    parse(qs);
  } catch (e) {
    return e as RestError;
  }
  throw new Error(`expected ${qs} to fail`);
};

describe('PostgREST query grammar', () => {
  it('reads the active-entry lookup the product sends', () => {
    expect(parse('select=*&stamp_end=gt.1700000000000&order=id.desc&limit=1')).toEqual({
      select: [{ column: '*' }],
      order: [{ column: 'id', descending: true }],
      filters: [{ column: 'stamp_end', negate: false, op: 'gt', value: '1700000000000' }],
      limit: 1,
    });
  });

  it('reads every operator, not., in lists with quoted items and is values', () => {
    const q = parse(
      'a=eq.1&b=neq.x&c=gte.2&d=lt.3&e=lte.4&f=not.in.(1,"two,2","th\\"ree")&g=is.NULL&h=not.is.true',
    );
    expect(q.filters).toEqual([
      { column: 'a', negate: false, op: 'eq', value: '1' },
      { column: 'b', negate: false, op: 'neq', value: 'x' },
      { column: 'c', negate: false, op: 'gte', value: '2' },
      { column: 'd', negate: false, op: 'lt', value: '3' },
      { column: 'e', negate: false, op: 'lte', value: '4' },
      { column: 'f', negate: true, op: 'in', value: ['1', 'two,2', 'th"ree'] },
      { column: 'g', negate: false, op: 'is', value: 'null' },
      { column: 'h', negate: true, op: 'is', value: 'true' },
    ]);
  });

  it('keeps a filter value with dots whole', () => {
    expect(parse('email=eq.a.b@example.com').filters[0]).toMatchObject({
      value: 'a.b@example.com',
    });
  });

  it('reads comma-joined order terms with nulls placement', () => {
    expect(parse('order=type.asc.nullslast,id.desc').order).toEqual([
      { column: 'type', descending: false, nulls: 'last' },
      { column: 'id', descending: true },
    ]);
  });

  it('reads a column list with aliases', () => {
    expect(parse('select=id,until:stamp_end').select).toEqual([
      { column: 'id' },
      { column: 'stamp_end', alias: 'until' },
    ]);
  });

  it('ignores a limit that is not a number, as PostgREST does', () => {
    expect(parse('limit=abc').limit).toBeUndefined();
  });

  it('answers 416 PGRST103 for a negative limit', () => {
    expect(failure('limit=-1')).toMatchObject({ status: 416, code: 'PGRST103' });
  });

  it.each([
    ['unknown operator', 'id=like.5'],
    ['missing operator', 'id=5'],
    ['in without parentheses', 'id=in.1,2'],
    ['bad is value', 'id=is.maybe'],
    ['bad order direction', 'order=id.up'],
    ['sql in select', 'select=id;drop table x'],
  ])('answers 400 PGRST100 for a %s', (_what, qs) => {
    const e = failure(qs);
    expect(e).toBeInstanceOf(RestError);
    expect(e).toMatchObject({ status: 400, code: 'PGRST100' });
    expect(e.message).toMatch(/^"failed to parse /);
  });

  it('names the first embedded resource of a select, which is answered 400 PGRST200 as by PostgREST', () => {
    expect(parse('select=*,owner(*)').embed).toBe('owner');
    expect(parse('select=id,who:created_by!fk(email)').embed).toBe('created_by');
    expect(parse('select=id,type').embed).toBeUndefined();
  });

  it('never treats apikey as a filter', () => {
    expect(parse('apikey=abc&select=id').filters).toEqual([]);
  });

  it('reads Range headers and Prefer values', () => {
    expect(parseRangeHeader('0-9')).toEqual({ offset: 0, limit: 10 });
    expect(parseRangeHeader('5-')).toEqual({ offset: 5 });
    expect(parseRangeHeader('oops')).toBeUndefined();
    expect(parsePrefer('return=representation, count=exact')).toEqual({
      return: 'representation',
      count: 'exact',
      missingDefault: false,
    });
    expect(parsePrefer(undefined).return).toBe('minimal');
  });
});
