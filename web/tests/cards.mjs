// Unit tests of the card faces (no browser): node web/tests/cards.mjs
import assert from 'node:assert/strict';
import { cardSvg, backSvg, canastaSvg, cardTitle } from '../card-face.js';

let passed = 0;
let failed = 0;
function test(name, fn) {
  try {
    fn();
    passed++;
  } catch (e) {
    failed++;
    console.error(`FAIL ${name}: ${e.message}`);
    process.exitCode = 1;
  }
}

/**
 * @typedef {{name: string, attrs: Record<string, string>, children: Element[], text: string}} Element
 */

const NAME_START = (c) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === ':';
const NAME_CHAR = (c) => NAME_START(c) || (c >= '0' && c <= '9') || c === '-' || c === '.';
const SPACE = (c) => c === ' ' || c === '\n' || c === '\t' || c === '\r';
const ENTITIES = ['amp', 'lt', 'gt', 'quot', 'apos'];

/**
 * A small XML parser that accepts only well-formed markup (one root element,
 * tags closed in order, quoted attributes named once, known entities, no
 * stray `<` or `&`) and returns the element tree; throws saying where the
 * markup went wrong. Enough for SVG built by string concatenation.
 * @param {string} src
 * @returns {Element}
 */
function parseXml(src) {
  let i = 0;
  const fail = (what) => {
    throw new Error(`${what} at ${i}: ${JSON.stringify(src.slice(Math.max(0, i - 30), i + 30))}`);
  };
  const name = () => {
    if (!NAME_START(src[i])) fail('expected a name');
    const start = i;
    while (i < src.length && NAME_CHAR(src[i])) i++;
    return src.slice(start, i);
  };
  const skipSpace = () => {
    while (i < src.length && SPACE(src[i])) i++;
  };
  const text = (end) => {
    let out = '';
    while (i < src.length && src[i] !== end) {
      if (src[i] === '<') fail('a "<" inside text or a value');
      if (src[i] === '&') {
        const semi = src.indexOf(';', i);
        const ent = semi < 0 ? '' : src.slice(i + 1, semi);
        if (!ENTITIES.includes(ent) && !(ent.startsWith('#') && ent.length > 1)) fail('an unknown entity');
        out += ent;
        i = semi + 1;
        continue;
      }
      out += src[i++];
    }
    return out;
  };
  /** @returns {Element} */
  const element = () => {
    if (src[i] !== '<') fail('expected "<"');
    i++;
    const el = { name: name(), attrs: {}, children: [], text: '' };
    for (;;) {
      const before = i;
      skipSpace();
      if (src.startsWith('/>', i)) {
        i += 2;
        return el;
      }
      if (src[i] === '>') {
        i++;
        break;
      }
      if (i === before) fail('expected a space before an attribute');
      const key = name();
      if (key in el.attrs) fail(`attribute ${key} twice`);
      if (src[i] !== '=') fail('expected "="');
      i++;
      const quote = src[i];
      if (quote !== '"' && quote !== "'") fail('expected a quoted value');
      i++;
      el.attrs[key] = text(quote);
      if (src[i] !== quote) fail('an unclosed value');
      i++;
    }
    for (;;) {
      el.text += text('<');
      if (i >= src.length) fail(`<${el.name}> not closed`);
      if (src.startsWith('</', i)) {
        i += 2;
        const close = name();
        if (close !== el.name) fail(`</${close}> closes <${el.name}>`);
        skipSpace();
        if (src[i] !== '>') fail('expected ">"');
        i++;
        return el;
      }
      el.children.push(element());
    }
  };
  const root = element();
  if (i !== src.length) fail('markup after the root element');
  return root;
}

/** Every element of a tree, depth first. @param {Element} el @returns {Element[]} */
const all = (el) => [el, ...el.children.flatMap(all)];

/** The root svg of `markup`, checked as a scalable face. */
function svgRoot(markup) {
  const root = parseXml(markup);
  assert.equal(root.name, 'svg');
  assert.equal(root.attrs.xmlns, 'http://www.w3.org/2000/svg');
  assert.match(root.attrs.viewBox, /^0 0 \d+(\.\d+)? \d+(\.\d+)?$/);
  assert.equal(root.attrs.width, '100%');
  assert.equal(root.attrs.height, '100%');
  for (const el of all(root)) {
    assert.ok(!('id' in el.attrs), `an id on <${el.name}> would clash when a page shows a card twice`);
    for (const [k, v] of Object.entries(el.attrs)) {
      assert.ok(!/NaN|undefined|Infinity/.test(v), `${k}="${v}" on <${el.name}>`);
    }
  }
  return root;
}

const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
const SUITS = ['S', 'H', 'D', 'C'];
const DECK = [...SUITS.flatMap((s) => RANKS.map((r) => r + s)), 'JK'];

test('the XML check refuses broken markup', () => {
  assert.throws(() => parseXml('<svg><g></svg>'));
  assert.throws(() => parseXml('<svg a="1" a="2"/>'));
  assert.throws(() => parseXml('<svg a=1/>'));
  assert.throws(() => parseXml('<svg>a < b</svg>'));
  assert.throws(() => parseXml('<svg>&nbsp;</svg>'));
  assert.throws(() => parseXml('<svg/><svg/>'));
  assert.throws(() => parseXml('<svg a="1"b="2"/>'));
  assert.equal(parseXml('<svg a="1"><g b=\'2\'/>x &amp; y</svg>').children[0].attrs.b, '2');
});

test('every face is a well-formed svg scaled to its box', () => {
  for (const code of DECK) {
    const root = svgRoot(cardSvg(code));
    assert.equal(root.attrs.viewBox, '0 0 100 140', code);
    assert.equal(root.attrs.role, 'img');
    assert.equal(root.attrs['aria-label'], cardTitle(code));
  }
  svgRoot(backSvg());
});

test('a large index gives well-formed faces too', () => {
  for (const code of DECK) svgRoot(cardSvg(code, { index: 'large', fourColour: true }));
});

test('the 53 faces and the back are all different', () => {
  const faces = new Set(DECK.map((c) => cardSvg(c)));
  assert.equal(faces.size, DECK.length);
  assert.ok(!faces.has(backSvg()));
});

test('codes are read in any case, with spaces around', () => {
  assert.equal(cardSvg(' kh '), cardSvg('KH'));
  assert.equal(cardSvg('jk'), cardSvg('JK'));
});

/** The texts of a face in document order. */
const texts = (markup) => all(svgRoot(markup)).filter((e) => e.name === 'text');

test("a ten's index says 10 and other ranks say their letter", () => {
  for (const s of SUITS) {
    const t = texts(cardSvg(`T${s}`));
    assert.equal(t.length, 2, 'an index at top-left and one at bottom-right');
    for (const e of t) assert.equal(e.text, '10');
  }
  assert.equal(texts(cardSvg('QD'))[0].text, 'Q');
  assert.equal(texts(cardSvg('7C'))[0].text, '7');
  assert.equal(texts(cardSvg('AS'))[0].text, 'A');
});

test('the corner index fits the left 21 units (14 px of a 70 px card), a large one the left 30 (13 px of 44)', () => {
  for (const [index, limit] of [['normal', 21], ['large', 30]]) {
    for (const code of DECK) {
      const [first] = texts(cardSvg(code, { index }));
      const x = Number(first.attrs.x);
      assert.equal(first.attrs['text-anchor'], 'middle');
      const half = (first.attrs.textLength ? Number(first.attrs.textLength) : Number(first.attrs['font-size']) * 0.8) / 2;
      assert.ok(x - half >= 0 && x + half <= limit, `${code} ${index}: index from ${x - half} to ${x + half}`);
    }
  }
  for (const code of ['TD', '7S', 'JK']) {
    const size = (opts) => Number(texts(cardSvg(code, opts))[0].attrs['font-size']);
    assert.ok(size({ index: 'large' }) > size({}), code);
  }
});

test('the joker says JOKER down its index, twice, and no jack does', () => {
  const word = texts(cardSvg('JK'))
    .map((e) => e.text)
    .join('');
  assert.equal(word, 'JOKERJOKER');
  for (const s of SUITS) assert.ok(!cardSvg(`J${s}`).includes('>O<'), `J${s}`);
});

test('unknown codes throw, naming the code', () => {
  for (const bad of ['', '1S', '10S', 'TX', 'KSS', 'ZZ', 'JKK', 'S', null, undefined, 42]) {
    assert.throws(() => cardSvg(/** @type {any} */ (bad)), /not a card/, String(bad));
    assert.throws(() => cardTitle(/** @type {any} */ (bad)), /not a card/, String(bad));
  }
});

test('titles name cards as players say them', () => {
  assert.equal(cardTitle('TD'), '10 of diamonds');
  assert.equal(cardTitle('QS'), 'Queen of spades');
  assert.equal(cardTitle('2c'), '2 of clubs');
  assert.equal(cardTitle('AH'), 'Ace of hearts');
  assert.equal(cardTitle('JK'), 'Joker');
});

test('four colours change diamonds and clubs only', () => {
  for (const code of DECK) {
    const same = cardSvg(code) === cardSvg(code, { fourColour: true });
    const changes = code[1] === 'D' || code[1] === 'C';
    assert.equal(same, !changes, code);
  }
  assert.ok(cardSvg('5D', { fourColour: true }).includes('#1458c0'));
  assert.ok(cardSvg('5C', { fourColour: true }).includes('#137a36'));
});

test('label: false hides the svg from screen readers', () => {
  const root = svgRoot(cardSvg('9H', { label: false }));
  assert.equal(root.attrs['aria-hidden'], 'true');
  assert.ok(!('aria-label' in root.attrs));
});

test('canastas: a stack under the top card, its colour from the rule books', () => {
  for (const kind of ['natural', 'mixed', 'wild', 'samba']) {
    for (const top of [null, '7', 'KD', 'JK']) {
      const root = svgRoot(canastaSvg(top, kind));
      assert.match(root.attrs['aria-label'], new RegExp(`^${kind}`, 'i'));
    }
  }
  // A rank alone: red on a natural canasta, black on a mixed one.
  assert.match(parseXml(canastaSvg('7', 'natural')).attrs['aria-label'], /7 of hearts/);
  assert.match(parseXml(canastaSvg('7', 'mixed')).attrs['aria-label'], /7 of spades/);
  assert.match(parseXml(canastaSvg('t', 'natural')).attrs['aria-label'], /10 of hearts/);
  // A card the caller names is shown as named.
  assert.match(parseXml(canastaSvg('KC', 'natural')).attrs['aria-label'], /King of clubs/);
  // Each kind is drawn differently, with and without a top card.
  const kinds = ['natural', 'mixed', 'wild', 'samba'];
  assert.equal(new Set(kinds.map((k) => canastaSvg(null, k))).size, 4);
  assert.equal(new Set(kinds.map((k) => canastaSvg('9H', k))).size, 4);
  assert.ok(canastaSvg(null, 'natural').includes('#c8102e'));
  assert.throws(() => canastaSvg('7', /** @type {any} */ ('red')), /not a kind of canasta/);
  assert.throws(() => canastaSvg('X', 'natural'), /not a card/);
  // More cards in the stack show more edges.
  const edges = (markup) => all(parseXml(markup)).filter((e) => e.name === 'rect' && e.attrs.width === '98.5').length;
  assert.ok(edges(canastaSvg('7', 'natural', { cards: 8 })) > edges(canastaSvg('7', 'natural', { cards: 3 })));
});

console.log(`cards: ${passed} passed, ${failed} failed`);
