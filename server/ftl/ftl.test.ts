// The FreeMarker engine: ranges, built-ins on parenthesised expressions, slices, the added built-ins, and
// hostile templates ending on a budget (asserted by error code, never by time).
import { describe, expect, it } from 'vitest';
import { PipeworkError } from '../../shared/errors';
import { renderFtl } from './index';

const render = (template: string, model: Record<string, unknown> = {}) =>
  renderFtl(template, model, { label: 'test', parameter: 'template' });

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof PipeworkError) return error.code;
    throw error;
  }
  throw new Error('no error');
}

describe('ranges', () => {
  it('lists inclusive, exclusive, length-limited and descending ranges', () => {
    expect(render('<#list 1..3 as i>${i}</#list>')).toBe('123');
    expect(render('<#list 0..<n as i>${i},</#list>', { n: 3 })).toBe('0,1,2,');
    expect(render('<#list 0..!2 as i>${i}</#list>')).toBe('01');
    expect(render('<#list 5..*3 as i>${i}</#list>')).toBe('567');
    expect(render('<#list 3..1 as i>${i}</#list>')).toBe('321');
    expect(render('<#list 0..<0 as i>${i}<#else>none</#list>')).toBe('none');
    expect(render('<#list 1..n+1 as i>${i}</#list>', { n: 2 })).toBe('123');
  });

  it('takes ranges as values and as slices of lists and texts', () => {
    expect(render('${(1..4)?join("-")} ${(1..4)?size}')).toBe('1-2-3-4 4');
    expect(render('<#assign r = 2..3>${r?join(",")}')).toBe('2,3');
    expect(
      render('${xs[1..2]?join(",")} ${xs[1..]?join(",")} ${s[0..<3]}', { xs: [1, 2, 3], s: 'hello' }),
    ).toBe('2,3 2,3 hel');
    expect(codeOf(() => render('${xs[1..9]?size}', { xs: [1] }))).toBe('PARAM_INVALID');
  });

  it('refuses a range without an end outside a slice, and ranges of fractions', () => {
    expect(codeOf(() => render('<#list 1.. as i>${i}</#list>'))).toBe('PARAM_INVALID');
    expect(codeOf(() => render('<#list 1..2.5 as i>${i}</#list>'))).toBe('PARAM_INVALID');
  });
});

describe('expressions', () => {
  it('applies built-ins to parenthesised expressions and defaults', () => {
    expect(render('${(a + b)?string}', { a: 1, b: 2 })).toBe('3');
    expect(render('${(x!"d")?upper_case} ${(name!"d")?upper_case}', { name: 'ann' })).toBe('D ANN');
    expect(render('${(first + " " + last)?length}', { first: 'Ann', last: 'Lee' })).toBe('7');
    expect(render('${x!} ${x!0 + 1}')).toBe(' 1');
    expect(render('<#if !(x??)>no x</#if>')).toBe('no x');
  });

  it('runs the added built-ins', () => {
    expect(
      render('${ok?then("yes", "no")} ${n?string("0.00")} ${m?string("#,##0.##")}', {
        ok: false,
        n: 2,
        m: 1234.567,
      }),
    ).toBe('no 2.00 1,234.57');
    expect(
      render('${"a,b"?split(",")?size} ${xs?seq_contains(2)?c} ${xs?sort?join("")} ${"7"?left_pad(3, "0")}', {
        xs: [3, 2, 1],
      }),
    ).toBe('2 true 123 007');
    expect(render('<#assign h = {"a": 1, "b": [1, 2]}>${h?keys?join(",")} ${[1, 2]?size}')).toBe('a,b 2');
  });

  it('reads string escapes and raw strings', () => {
    expect(render('${"a\\tb"} ${r"c\\d"} ${"\\x41"} ${\'it\'}')).toBe('a\tb c\\d A it');
  });
});

describe('hostile templates end on a budget', () => {
  it('a huge range: LIMIT_EXCEEDED, as a list and as a value', () => {
    expect(codeOf(() => render('<#list 1..1000000000000 as i></#list>'))).toBe('LIMIT_EXCEEDED');
    expect(codeOf(() => render('${(0..*1000000000000)?size}'))).toBe('LIMIT_EXCEEDED');
    expect(codeOf(() => render('<#list 1..99999 as a><#list 1..99999 as b></#list></#list>'))).toBe(
      'LIMIT_EXCEEDED',
    );
  });

  it('a text or a list doubled until it is huge: LIMIT_EXCEEDED', () => {
    expect(
      codeOf(() =>
        render('<#assign s = "xxxxxxxx"><#list 1..60 as i><#assign s = s + s></#list>${s?length}'),
      ),
    ).toBe('LIMIT_EXCEEDED');
    expect(
      codeOf(() => render('<#assign l = [1, 2]><#list 1..60 as i><#assign l = l + l></#list>${l?size}')),
    ).toBe('LIMIT_EXCEEDED');
    expect(
      codeOf(() =>
        render(
          '<#assign s = "aaaaaaaaaaaaaaaa"><#list 1..8 as i><#assign s = s?replace("a", s)></#list>${s?length}',
        ),
      ),
    ).toBe('LIMIT_EXCEEDED');
    expect(codeOf(() => render('${"x"?left_pad(1000000000)}'))).toBe('PARAM_INVALID');
  });

  it('deep nesting: PARAM_INVALID, never a stack overflow', () => {
    const parens = `\${${'('.repeat(1000)}1${')'.repeat(1000)}}`;
    expect(codeOf(() => render(parens))).toBe('PARAM_INVALID');
    const negations = `\${${'-'.repeat(1000)}1}`;
    expect(codeOf(() => render(negations))).toBe('PARAM_INVALID');
    const ifs = `${'<#if true>'.repeat(500)}x${'</#if>'.repeat(500)}`;
    expect(codeOf(() => render(ifs))).toBe('PARAM_INVALID');
  });

  it('names the renderer and its parameter in the error', () => {
    try {
      renderFtl('${missing}', {}, { label: 'mail.send', parameter: 'message' });
      throw new Error('no error');
    } catch (error) {
      expect((error as PipeworkError).message).toMatch(/^mail\.send: missing is missing/);
      expect((error as PipeworkError).details.parameter).toBe('message');
    }
  });
});
