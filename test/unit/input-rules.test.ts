// The edge's text and nesting rules on their own: which strings pass, which field a message names,
// and that depth is measured without recursion (a value 1,000,000 levels deep is not a crash).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findInputProblem } from '../../src/api/input-guard.js';
import {
  cleanLine,
  freeFormObject,
  jsonBoundsProblem,
  singleLine,
  textProblem,
  TEXT_MESSAGES,
} from '../../src/api/schemas/text.js';

describe('textProblem', () => {
  it('refuses lone surrogates, NUL and C0 controls; allows tab, newline, CR, pairs and other scripts', () => {
    for (const bad of [
      '\u0000',
      'a\u0000',
      '\ud800',
      'x\udfff',
      '\ud83d',
      '\ude00x',
      '\u0001',
      '\u001f',
      '\u000b',
      '\u000c',
      '\u001b[0m',
    ]) {
      expect(textProblem(bad, false), JSON.stringify(bad)).toBeDefined();
    }
    for (const good of ['', 'plain', 'a\tb\nc\r\n', '😀', '한국어', '\u007f', '\u0085', '\u2028', '\ufeff\uffff']) {
      expect(textProblem(good, false), JSON.stringify(good)).toBeUndefined();
    }
    expect(textProblem('\ud800', false)).toBe(TEXT_MESSAGES.surrogate);
  });

  it('the single-line rule also refuses tab, newline, DEL, C1 controls and line separators', () => {
    for (const bad of ['a\tb', 'a\nb', '\r', '\u007f', '\u0085', '\u009f', '\u2028', '\u2029', '\ud800']) {
      expect(textProblem(bad, true), JSON.stringify(bad)).toBeDefined();
    }
    for (const good of ['member-1024', 'page view', '구매 😀', 'café']) expect(textProblem(good, true)).toBeUndefined();
  });

  it('singleLine() adds the rule to a zod string and names the failure', () => {
    const schema = z.object({ eventType: singleLine(z.string().trim().min(1)) });
    expect(schema.safeParse({ eventType: ' view ' }).data).toEqual({ eventType: 'view' });
    const failed = schema.safeParse({ eventType: 'a\nb' });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]).toMatchObject({ path: ['eventType'], message: TEXT_MESSAGES.line });
  });
});

describe('findInputProblem', () => {
  it('names the field: nested keys, array indexes, hostile keys', () => {
    expect(findInputProblem({ a: { b: ['ok', 'x\u0000'] } }, false)).toEqual({
      field: 'a.b.1',
      problem: TEXT_MESSAGES.control,
    });
    expect(findInputProblem({ properties: { 'k\u0000': 1 } }, false)).toMatchObject({
      field: 'properties.k\\u0000',
      problem: expect.stringMatching(/^the key /),
    });
    expect(findInputProblem({ keyword: 'a\nb' }, true)).toEqual({ field: 'keyword', problem: TEXT_MESSAGES.line });
    expect(findInputProblem('x\u0000', false)).toEqual({ field: '', problem: TEXT_MESSAGES.control });
    expect(findInputProblem({ text: 'a\nb' }, false)).toBeUndefined();
    expect(findInputProblem(undefined, false)).toBeUndefined();
  });

  it('stops at the depth limit without recursion, however deep the value', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(findInputProblem(deep, false)?.problem).toMatch(/nested too deeply \(at most 32 levels\)/);
    let ok: unknown = 'x';
    for (let i = 0; i < 31; i++) ok = { a: ok };
    expect(findInputProblem(ok, false)).toBeUndefined();
  });
});

describe('free-form objects', () => {
  it('are bounded in depth, nodes and bytes, measured before JSON.stringify', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(jsonBoundsProblem(deep, { maxDepth: 8, maxNodes: 1_000, maxBytes: 16_384 })).toMatch(/at most 8 levels/);
    const schema = freeFormObject();
    expect(schema.safeParse({ a: { b: [1, 2, { c: 'd' }] } }).success).toBe(true);
    expect(schema.safeParse(Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`k${i}`, i]))).success).toBe(
      false,
    );
    expect(schema.safeParse({ big: 'x'.repeat(20_000) }).success).toBe(false);
    expect(schema.safeParse({ ['k'.repeat(101)]: 1 }).success).toBe(false);
  });
});

describe('cleanLine', () => {
  it('drops control characters and replaces lone surrogates, keeping everything else', () => {
    expect(cleanLine('a\u0000b\u0001c\u007f\u0085\u2028d\te\nf')).toBe('abcdef');
    expect(cleanLine('x\ud800y😀')).toBe('x\ufffdy😀');
    expect(cleanLine('😀'.slice(0, 1))).toBe('\ufffd');
  });
});
