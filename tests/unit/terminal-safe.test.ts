import { describe, expect, it } from 'vitest';
import { safeJson, safeLine, showType, terminalSafe } from '../../cli/terminal/terminal-safe.js';

// What the CLI does to text from a server before a terminal sees it.

const OSC52 = '\u001b]52;c;aGk=\u0007';

describe('terminalSafe', () => {
  it('shows C0, C1, DEL, bidi controls and line breaks escaped, leaves other text alone', () => {
    expect(terminalSafe(`a\u001b[2Jb${OSC52}`)).toBe('a\\u{1b}[2Jb\\u{1b}]52;c;aGk=\\u{7}');
    expect(terminalSafe('x\u009b31my\u007f')).toBe('x\\u{9b}31my\\u{7f}');
    expect(terminalSafe('abc\u202eexe.fdp\n')).toBe('abc\\u{202e}exe.fdp\\u{a}');
    expect(terminalSafe('Müller 👩‍💻 写真')).toBe('Müller 👩‍💻 写真');
  });
});

describe('showType', () => {
  it('shows a profile name as it is and anything else as an unknown profile, escaped', () => {
    expect(showType('main')).toBe('main');
    expect(showType('photo')).toBe('photo');
    // A profile the owner added: any name of the form the database holds.
    expect(showType('shop')).toBe('shop');
    expect(showType('event-2030')).toBe('event-2030');
    expect(showType('Banana')).toBe('unknown profile `Banana`');
    expect(showType('banana split')).toBe('unknown profile `banana split`');
    expect(showType(`photo${OSC52}`)).toBe('unknown profile `photo\\u{1b}]52;c;aGk=\\u{7}`');
    expect(showType(null)).toBe('unknown profile `null`');
    expect(showType('y'.repeat(100))).toBe(`unknown profile \`${'y'.repeat(40)}…\``);
  });
});

describe('safeLine', () => {
  it("keeps the CLI's own colours at a colour terminal, and escapes any other sequence", () => {
    const line = `\u001b[1mbold\u001b[22m \u001b]0;title\u0007 \u001b[2J`;
    expect(safeLine(line, true)).toBe('\u001b[1mbold\u001b[22m \\u{1b}]0;title\\u{7} \\u{1b}[2J');
    expect(safeLine(line, false)).toBe(
      '\\u{1b}[1mbold\\u{1b}[22m \\u{1b}]0;title\\u{7} \\u{1b}[2J',
    );
    expect(safeLine('two\nlines\tand a tab', false, true)).toBe('two\nlines\tand a tab');
    // One line: a line break can only come from a value, and would forge a line.
    expect(safeLine('photo\nVisitors go to https://evil.example', false)).toBe(
      'photo\\u{a}Visitors go to https://evil.example',
    );
  });
});

describe('safeJson', () => {
  it('writes every control and format character as a JSON escape, and parses back exactly', () => {
    const value = { type: `p\u001b[2J\u009b\u202e\u2028\u{e0001}x`, n: 1, list: ['a\nb'] };
    const text = safeJson(value);
    expect(JSON.parse(text)).toEqual(value);
    expect(text).toContain('\\u009b');
    expect(text).toContain('\\u202e');
    expect(text).toContain('\\udb40\\udc01');
    expect(text).not.toMatch(/[\u007f-\u009f\u202e\u2028]/);
    expect(text).toBe(
      JSON.stringify(JSON.parse(text), null, 2).replace(/[\u009b\u202e\u2028]|\u{e0001}/gu, (c) =>
        [...Array(c.length).keys()]
          .map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`)
          .join(''),
      ),
    );
  });
});
