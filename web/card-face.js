// @ts-check
// Card faces drawn as SVG markup, generated here (original art, nothing
// loaded): pips laid out as on printed cards, two-headed court figures, a
// decorated ace of spades, a jester joker, a patterned back and squared-up
// canastas. Every face is a 100 x 140 viewBox scaled to its box (width and
// height 100%), so one markup serves a 44 px phone card and a 70 px desktop
// card alike.
//
// The corner index (rank over suit) stays inside the card's left 21 units,
// that is the left 9 px of a 44 px card and 14 px of a 70 px one, so a fan
// that shows only a card's left 14 px still shows what the card is; its rank
// is tall and set to a fixed width, the same in every font. Small cards
// fanned 14 px apart can ask for `index: 'large'`, which fills 13 px of a
// 44 px card and draws the picture smaller beside it. Suits
// differ in shape, not only colour; `fourColour` paints diamonds blue and
// clubs green as well.
//
// No element carries an id (a page shows the same card twice and hides some
// faces; ids and url(#...) references would clash), hence no gradients,
// patterns or clip paths: flat shapes only.

/**
 * @typedef {object} FaceOptions
 * @property {boolean} [fourColour] diamonds blue, clubs green (spades black, hearts red)
 * @property {boolean} [label] false: the svg is `aria-hidden` instead of a labelled image (default true)
 * @property {'normal' | 'large'} [index] 'large': a corner index filling the card's left 30 units
 *   (13 px of a 44 px card, for small cards fanned 14 px apart), the picture drawn smaller
 *   to make room; 'normal' (the default) keeps it inside the left 21 units (14 px of a 70 px card)
 */

/** @typedef {'S' | 'H' | 'D' | 'C'} Suit */
/** @typedef {'natural' | 'mixed' | 'wild' | 'samba'} CanastaKind */

const RANKS = '23456789TJQKA';
const SUITS = 'SHDC';
const SUIT_NAME = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
/** @type {Record<string, string>} */
const RANK_WORD = { T: '10', J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace' };
/** Two-colour and four-colour inks by suit. */
const INK2 = { S: '#1b1c20', H: '#c8102e', D: '#c8102e', C: '#1b1c20' };
const INK4 = { S: '#1b1c20', H: '#c8102e', D: '#1458c0', C: '#137a36' };
const GOLD = '#e4a72a';
const BLUE = '#2b58a8';
const SKIN = '#f8dcbc';
const LINE = '#3b2a1c';
const PAPER = '#ffffff';
const EDGE = '#8b949c';
const JOKER_INK = '#6a2596';
const JOKER_GREEN = '#1f8a4c';
const FONT = "font-family=\"'Helvetica Neue',Helvetica,Arial,'Liberation Sans','DejaVu Sans',sans-serif\" font-weight=\"700\"";

/** Rounds to two decimals so the markup stays short. */
const n = (/** @type {number} */ x) => String(Math.round(x * 100) / 100);

// ---------- suit shapes, each in a -50..50 box ----------

/** @type {Record<Suit, string>} */
const SUIT_SHAPE = {
  H: '<path d="M0,46C-6,36-48,12-48-16C-48-34-36-44-23-44C-12-44-4-37 0-28C4-37 12-44 23-44C36-44 48-34 48-16C48,12 6,36 0,46Z"/>',
  S: '<path d="M0-48C-6-36-46-16-46,8C-46,24-35,32-23,32C-14,32-7,27-4,21C-5,32-10,41-18,48L18,48C10,41 5,32 4,21C7,27 14,32 23,32C35,32 46,24 46,8C46-16 6-36 0-48Z"/>',
  D: '<path d="M0-50C8-34 22-16 38,0C22,16 8,34 0,50C-8,34-22,16-38,0C-22-16-8-34 0-50Z"/>',
  C: '<circle cx="0" cy="-24" r="21"/><circle cx="-23" cy="8" r="21"/><circle cx="23" cy="8" r="21"/><path d="M-9-12L9-12L11,12L-11,12ZM-4,8C-4,28-10,40-18,48L18,48C10,40 4,28 4,8Z"/>',
};

/**
 * A suit symbol of `size` units centred on (x, y), upside down when `flip`.
 * @param {Suit} suit @param {number} x @param {number} y @param {number} size
 * @param {string} fill @param {boolean} [flip]
 */
function pip(suit, x, y, size, fill, flip = false) {
  const rot = flip ? ' rotate(180)' : '';
  return `<g fill="${fill}" transform="translate(${n(x)} ${n(y)}) scale(${n(size / 100)})${rot}">${SUIT_SHAPE[suit]}</g>`;
}

/**
 * A star path with `points` points.
 * @param {number} cx @param {number} cy @param {number} outer @param {number} inner @param {number} [points]
 */
function starPath(cx, cy, outer, inner, points = 5) {
  let d = '';
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI * i) / points - Math.PI / 2;
    d += `${i ? 'L' : 'M'}${n(cx + r * Math.cos(a))},${n(cy + r * Math.sin(a))}`;
  }
  return `${d}Z`;
}

// ---------- parsing and names ----------

/**
 * `{rank, suit}` of a card code (`7S`, `TD`, `JK`, any case); throws on
 * anything else.
 * @param {string} code
 * @returns {{joker: true} | {joker: false, rank: string, suit: Suit}}
 */
function parse(code) {
  const c = String(code).trim().toUpperCase();
  if (c === 'JK') return { joker: true };
  if (c.length === 2 && RANKS.includes(c[0]) && SUITS.includes(c[1])) {
    return { joker: false, rank: c[0], suit: /** @type {Suit} */ (c[1]) };
  }
  throw new Error(`not a card: ${JSON.stringify(code)} (expected a rank 2-9, T, J, Q, K, A and a suit S, H, D, C, or JK)`);
}

/**
 * A card's name for labels and screen readers: "10 of diamonds",
 * "Queen of spades", "Joker".
 * @param {string} code
 * @returns {string}
 */
export function cardTitle(code) {
  const c = parse(code);
  if (c.joker) return 'Joker';
  return `${RANK_WORD[c.rank] || c.rank} of ${SUIT_NAME[c.suit]}`;
}

// ---------- the frame ----------

/**
 * @param {string} inner @param {string} label @param {FaceOptions} opts
 * @param {string} [viewBox]
 */
function svg(inner, label, opts, viewBox = '0 0 100 140') {
  const a11y = opts.label === false ? 'aria-hidden="true"' : `role="img" aria-label="${label}"`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}" width="100%" height="100%" ${a11y}>${inner}</svg>`;
}

/** The card's paper and edge. @param {string} [fill] @param {string} [edge] */
const paper = (fill = PAPER, edge = EDGE) =>
  `<rect x="0.75" y="0.75" width="98.5" height="138.5" rx="7" fill="${fill}" stroke="${edge}" stroke-width="1.5"/>`;

/**
 * The corner index's geometry: its centre line, the rank's size and
 * baseline, the suit's size and centre, and the picture's scale beside it.
 */
const INDEX = {
  normal: { x: 11, font: 34, baseline: 33, widen: 1, suit: 18, suitY: 47.5, body: 1, jokerFont: 20, jokerStep: 20 },
  large: { x: 15, font: 44, baseline: 41, widen: 1.3, suit: 23, suitY: 59, body: 0.78, jokerFont: 25, jokerStep: 21 },
};

/** @param {FaceOptions} opts */
const indexOf = (opts) => (opts.index === 'large' ? INDEX.large : INDEX.normal);

/** Width units of each rank's label, fixed so every font gives the same index. */
/** @type {Record<string, number>} */
const LABEL_WIDTH = { T: 19, Q: 19, K: 19, A: 19, J: 14 };

/**
 * The corner index, top-left, and the same turned at bottom-right.
 * @param {string} rank @param {Suit} suit @param {string} ink @param {typeof INDEX.normal} at
 */
function indices(rank, suit, ink, at) {
  const label = rank === 'T' ? '10' : rank;
  const width = n((LABEL_WIDTH[rank] || 16) * at.widen);
  const one =
    `<text x="${at.x}" y="${at.baseline}" font-size="${at.font}" text-anchor="middle" textLength="${width}" lengthAdjust="spacingAndGlyphs" ${FONT} fill="${ink}">${label}</text>` +
    pip(suit, at.x, at.suitY, at.suit, ink);
  return `${one}<g transform="rotate(180 50 70)">${one}</g>`;
}

// ---------- number cards ----------

const COL_L = 34;
const COL_R = 66;
const COL_C = 50;
const TOP = 25;
const BOTTOM = 115;
const MID = 70;
const Q1 = TOP + (BOTTOM - TOP) / 3;
const Q2 = TOP + ((BOTTOM - TOP) * 2) / 3;

/**
 * Pip positions [x, y] of the number cards, as printed cards lay them out.
 * @type {Record<string, [number, number][]>}
 */
const LAYOUT = {
  2: [[COL_C, TOP], [COL_C, BOTTOM]],
  3: [[COL_C, TOP], [COL_C, MID], [COL_C, BOTTOM]],
  4: [[COL_L, TOP], [COL_R, TOP], [COL_L, BOTTOM], [COL_R, BOTTOM]],
  5: [[COL_L, TOP], [COL_R, TOP], [COL_C, MID], [COL_L, BOTTOM], [COL_R, BOTTOM]],
  6: [[COL_L, TOP], [COL_R, TOP], [COL_L, MID], [COL_R, MID], [COL_L, BOTTOM], [COL_R, BOTTOM]],
  7: [[COL_L, TOP], [COL_R, TOP], [COL_C, (TOP + MID) / 2], [COL_L, MID], [COL_R, MID], [COL_L, BOTTOM], [COL_R, BOTTOM]],
  8: [
    [COL_L, TOP], [COL_R, TOP], [COL_C, (TOP + MID) / 2], [COL_L, MID], [COL_R, MID],
    [COL_C, (MID + BOTTOM) / 2], [COL_L, BOTTOM], [COL_R, BOTTOM],
  ],
  9: [
    [COL_L, TOP], [COL_R, TOP], [COL_L, Q1], [COL_R, Q1], [COL_C, MID],
    [COL_L, Q2], [COL_R, Q2], [COL_L, BOTTOM], [COL_R, BOTTOM],
  ],
  T: [
    [COL_L, TOP], [COL_R, TOP], [COL_C, (TOP + Q1) / 2], [COL_L, Q1], [COL_R, Q1],
    [COL_L, Q2], [COL_R, Q2], [COL_C, (Q2 + BOTTOM) / 2], [COL_L, BOTTOM], [COL_R, BOTTOM],
  ],
};

/** @param {string} rank @param {Suit} suit @param {string} ink */
function numberBody(rank, suit, ink) {
  const spots = LAYOUT[rank];
  const size = spots.length <= 3 ? 24 : spots.length >= 9 ? 19 : 21;
  return spots.map(([x, y]) => pip(suit, x, y, size, ink, y > MID + 0.1)).join('');
}

// ---------- aces ----------

/** @param {Suit} suit @param {string} ink */
function aceBody(suit, ink) {
  if (suit !== 'S') return pip(suit, 50, 70, 50, ink);
  // The ace of spades, decorated as printers do: a large spade in a gold
  // rosette, a white inner outline and a scroll beneath.
  let rosette = '';
  for (let i = 0; i < 16; i++) {
    const a = (Math.PI * 2 * i) / 16;
    const x = 50 + 33 * Math.cos(a);
    const y = 68 + 33 * Math.sin(a);
    rosette += `<ellipse cx="${n(x)}" cy="${n(y)}" rx="2.2" ry="4.5" transform="rotate(${n((a * 180) / Math.PI + 90)} ${n(x)} ${n(y)})"/>`;
  }
  return (
    `<circle cx="50" cy="68" r="33" fill="none" stroke="${GOLD}" stroke-width="1.2"/>` +
    `<g fill="${GOLD}">${rosette}</g>` +
    pip('S', 50, 68, 54, ink) +
    `<g fill="none" stroke="#fff" stroke-width="2.6" transform="translate(50 68) scale(0.4)">${SUIT_SHAPE.S}</g>` +
    `<g fill="${GOLD}" transform="translate(50 68) scale(0.12)">${SUIT_SHAPE.S}</g>` +
    `<path d="M30,108C38,104 44,110 50,106C56,110 62,104 70,108L68,114C62,110 56,116 50,112C44,116 38,110 32,114Z" fill="${BLUE}" stroke="${GOLD}" stroke-width="0.8"/>`
  );
}

// ---------- court cards ----------

/** Hair and beard colours, varied by suit so the twelve faces differ. */
const HAIR = { S: '#4a3526', H: '#d9a441', D: '#7a4a24', C: '#2f2a26' };
const BEARD = { S: '#9a9a9a', H: '#caa052', D: '#6d4424', C: '#e0ddd6' };

/**
 * The pattern on the robe, one per suit.
 * @param {Suit} suit @param {string} robe
 */
function robePattern(suit, robe) {
  switch (suit) {
    case 'S':
      return `<path d="M31,66L36,61L41,66M59,66L64,61L69,66" fill="none" stroke="${GOLD}" stroke-width="1.6"/>`;
    case 'H':
      return `<g fill="${GOLD}"><circle cx="33" cy="64" r="1.6"/><circle cx="39" cy="67" r="1.6"/><circle cx="61" cy="67" r="1.6"/><circle cx="67" cy="64" r="1.6"/><circle cx="36" cy="59" r="1.3"/><circle cx="64" cy="59" r="1.3"/></g>`;
    case 'D':
      return `<path d="M29,64L34,60L39,64L34,68ZM61,64L66,60L71,64L66,68Z" fill="${BLUE}" stroke="${GOLD}" stroke-width="0.7"/>`;
    default:
      return `<path d="M34,57V70M39,54V70M61,54V70M66,57V70" stroke="${robe === GOLD ? BLUE : GOLD}" stroke-width="1.6"/>`;
  }
}

/**
 * What the figure holds, by rank and suit; drawn in the upper half.
 * @param {string} rank @param {Suit} suit @param {string} ink
 */
function courtItem(rank, suit, ink) {
  const hand = (/** @type {number} */ x, /** @type {number} */ y) =>
    `<circle cx="${x}" cy="${y}" r="2.4" fill="${SKIN}" stroke="${LINE}" stroke-width="0.4"/>`;
  if (rank === 'K') {
    if (suit === 'C') {
      // An orb.
      return `<circle cx="65" cy="52" r="4.6" fill="${GOLD}" stroke="${LINE}" stroke-width="0.4"/><path d="M60.4,52H69.6M65,47.4V56.6" stroke="${LINE}" stroke-width="0.5"/><path d="M65,45.4V42M63.4,43.4H66.6" stroke="${GOLD}" stroke-width="1"/>${hand(65, 58)}`;
    }
    if (suit === 'D') {
      // A sceptre.
      return `<path d="M67,20V60" stroke="${GOLD}" stroke-width="1.8"/><circle cx="67" cy="19" r="2.6" fill="${GOLD}" stroke="${LINE}" stroke-width="0.4"/><circle cx="67" cy="19" r="1" fill="${ink}"/>${hand(67, 57)}`;
    }
    // A sword: upright for spades; for hearts raised behind the head, as the
    // king of hearts holds it on printed cards.
    const tilt = suit === 'H' ? ' transform="rotate(-16 67 56)"' : '';
    return `<g${tilt}><path d="M65.8,18L67,14L68.2,18V49H65.8Z" fill="#dfe5ea" stroke="${LINE}" stroke-width="0.4"/><rect x="62" y="49" width="10" height="2.2" rx="1" fill="${GOLD}"/><rect x="66.1" y="51" width="1.8" height="5" fill="#6b4226"/></g>${hand(67, 56)}`;
  }
  if (rank === 'Q') {
    if (suit === 'S') {
      return `<path d="M34,24V60" stroke="${GOLD}" stroke-width="1.6"/><path d="${starPath(34, 22, 3.6, 1.5)}" fill="${GOLD}" stroke="${LINE}" stroke-width="0.3"/>${hand(34, 57)}`;
    }
    // A flower on its stem.
    const petal = suit === 'D' ? BLUE : suit === 'C' ? GOLD : '#d8344f';
    let petals = '';
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI * 2 * i) / 6;
      petals += `<circle cx="${n(34 + 2.6 * Math.cos(a))}" cy="${n(42 + 2.6 * Math.sin(a))}" r="2"/>`;
    }
    return `<path d="M34,45C35,50 33,54 34,58" fill="none" stroke="#2f7a3b" stroke-width="1"/><path d="M34,50C31,48 30,50 30,51C32,52 33,51 34,50Z" fill="#2f7a3b"/><g fill="${petal}" stroke="${LINE}" stroke-width="0.3">${petals}</g><circle cx="34" cy="42" r="1.6" fill="${suit === 'C' ? '#d8344f' : GOLD}"/>${hand(34, 57)}`;
  }
  // Jacks: a halberd, a pike, a torch or an arrow.
  if (suit === 'H') {
    return `<path d="M34,30V60" stroke="#6b4226" stroke-width="2"/><path d="M34,20C30,24 31,28 34,30C37,28 38,24 34,20Z" fill="${GOLD}" stroke="#d8344f" stroke-width="0.8"/>${hand(34, 56)}`;
  }
  if (suit === 'D') {
    return `<path d="M34,18V60" stroke="#6b4226" stroke-width="1.6"/><path d="M34,16L36,22H32ZM34,23C28,23 28,31 34,31Z" fill="#cfd6dc" stroke="${LINE}" stroke-width="0.4"/>${hand(34, 56)}`;
  }
  if (suit === 'C') {
    return `<path d="M34,18V60" stroke="#6b4226" stroke-width="1.4"/><path d="M34,15L36.5,21H31.5Z" fill="#cfd6dc" stroke="${LINE}" stroke-width="0.4"/><path d="M34,56L31,61M34,56L37,61" stroke="${ink}" stroke-width="1"/>${hand(34, 52)}`;
  }
  return `<path d="M34,19V60" stroke="#6b4226" stroke-width="1.6"/><path d="M34,12L36.6,19H31.4Z" fill="#cfd6dc" stroke="${LINE}" stroke-width="0.4"/><path d="M31,20.5H37" stroke="${GOLD}" stroke-width="1.4"/>${hand(34, 56)}`;
}

/**
 * A head, its hair and what is on it.
 * @param {string} rank @param {Suit} suit @param {string} ink
 */
function courtHead(rank, suit, ink) {
  const hair = HAIR[suit];
  let back = '';
  let front = '';
  let hat = '';
  if (rank === 'K') {
    back = `<path d="M40.5,33C40,42 41,47 43,49H57C59,47 60,42 59.5,33Z" fill="${BEARD[suit]}"/>`;
    front =
      `<path d="M42,40C42,49 46,53 50,54C54,53 58,49 58,40C56,44 53,45 50,45C47,45 44,44 42,40Z" fill="${BEARD[suit]}" stroke="${LINE}" stroke-width="0.3"/>` +
      `<path d="M46,43.6C48,42.2 49.4,42.6 50,43.4C50.6,42.6 52,42.2 54,43.6C52,44.4 50.8,44.4 50,44C49.2,44.4 48,44.4 46,43.6Z" fill="${BEARD[suit]}" stroke="${LINE}" stroke-width="0.3"/>`;
    hat =
      `<path d="M41,31L39.6,19L44.6,25L50,16L55.4,25L60.4,19L59,31Z" fill="${GOLD}" stroke="${LINE}" stroke-width="0.4"/>` +
      `<rect x="40.6" y="28" width="18.8" height="3.6" fill="${GOLD}" stroke="${LINE}" stroke-width="0.4"/>` +
      `<circle cx="45" cy="29.8" r="1" fill="#d8344f"/><circle cx="50" cy="29.8" r="1.1" fill="${BLUE}"/><circle cx="55" cy="29.8" r="1" fill="#d8344f"/>` +
      `<circle cx="39.6" cy="19" r="1" fill="${GOLD}"/><circle cx="50" cy="16" r="1.2" fill="${GOLD}"/><circle cx="60.4" cy="19" r="1" fill="${GOLD}"/>`;
  } else if (rank === 'Q') {
    back = `<path d="M41,37C40,27 45,25 50,25C55,25 60,27 59,37L61,51C58,53 56,51 56,47L56,37C54,34 46,34 44,37L44,47C44,51 42,53 39,51Z" fill="${hair}" stroke="${LINE}" stroke-width="0.3"/>`;
    hat =
      `<path d="M42.4,30C42.4,24.6 45,23 46.6,26C47.6,21 52.4,21 53.4,26C55,23 57.6,24.6 57.6,30Z" fill="${GOLD}" stroke="${LINE}" stroke-width="0.4"/>` +
      `<circle cx="50" cy="25.6" r="1.3" fill="${suit === 'S' || suit === 'C' ? BLUE : '#d8344f'}"/><path d="M42.4,30H57.6" stroke="${LINE}" stroke-width="0.4"/>`;
  } else {
    back = `<path d="M41.5,38C41,30 45,27 50,27C55,27 59,30 58.5,38L59,44C57,44 56.5,42 56.5,40C55,34 45,34 43.5,40C43.5,42 43,44 41,44Z" fill="${hair}"/>`;
    const cap = suit === 'H' || suit === 'D' ? BLUE : '#c8102e';
    hat =
      `<path d="M40,32C38,25 45,20.5 53,21C60,21.5 63,26 60,32Z" fill="${cap}" stroke="${LINE}" stroke-width="0.4"/>` +
      `<path d="M40.4,31H59.8" stroke="${GOLD}" stroke-width="1.8"/>` +
      `<path d="M57,24C60,18 64,14 69,12C66,16 63,20 58.6,25Z" fill="${suit === 'H' || suit === 'D' ? GOLD : '#f4f1ea'}" stroke="${LINE}" stroke-width="0.4"/>`;
  }
  const face =
    `<ellipse cx="50" cy="39" rx="8" ry="9.6" fill="${SKIN}" stroke="${LINE}" stroke-width="0.5"/>` +
    `<circle cx="46.9" cy="37.6" r="0.95" fill="${LINE}"/><circle cx="53.1" cy="37.6" r="0.95" fill="${LINE}"/>` +
    `<path d="M45.2,35.4Q47,34.4 48.6,35.4M51.4,35.4Q53,34.4 54.8,35.4M50,38.2L49.1,41.4L50.6,41.8" fill="none" stroke="${LINE}" stroke-width="0.45"/>` +
    `<circle cx="45.6" cy="41.6" r="1.3" fill="#f2a7a0" opacity="0.7"/><circle cx="54.4" cy="41.6" r="1.3" fill="#f2a7a0" opacity="0.7"/>` +
    (rank === 'K' ? '' : `<path d="M47.8,44.6Q50,46 52.2,44.6" fill="none" stroke="#b8283d" stroke-width="0.7"/>`);
  return `${back}<rect x="47" y="45" width="6" height="6" fill="${SKIN}"/>${face}${front}${hat}`;
}

/**
 * The upper half of a court figure: robe, collar, head and what it holds.
 * @param {string} rank @param {Suit} suit @param {string} ink
 */
function courtHalf(rank, suit, ink) {
  const robe = ink;
  const trim = rank === 'Q' ? BLUE : GOLD;
  const body =
    `<path d="M27,70V60C30,54 38,51 44,50H56C62,51 70,54 73,60V70Z" fill="${robe}" stroke="${LINE}" stroke-width="0.4"/>` +
    `<path d="M27,62C32,57 38,55 42,55L44,70H27ZM73,62C68,57 62,55 58,55L56,70H73Z" fill="${rank === 'J' && suit !== 'C' ? GOLD : BLUE}" opacity="0.9"/>` +
    robePattern(suit, robe);
  let collar;
  if (rank === 'K') {
    collar = `<path d="M41,50L50,64L59,50Z" fill="${trim}" stroke="${LINE}" stroke-width="0.4"/><path d="M44.6,50L50,58.4L55.4,50Z" fill="${BLUE}"/><path d="M38,52C42,56 58,56 62,52" fill="none" stroke="#f4f1ea" stroke-width="2.4"/>`;
  } else if (rank === 'Q') {
    collar = `<path d="M42,50C44,58 56,58 58,50Z" fill="${SKIN}" stroke="${LINE}" stroke-width="0.4"/><path d="M43.5,52C46,57 54,57 56.5,52" fill="none" stroke="${GOLD}" stroke-width="1"/><circle cx="50" cy="56.2" r="1.3" fill="${GOLD}" stroke="${LINE}" stroke-width="0.3"/>`;
  } else {
    collar = `<path d="M40,50L46,56L50,51L54,56L60,50Z" fill="#f4f1ea" stroke="${LINE}" stroke-width="0.4"/><path d="M50,56V70" stroke="${GOLD}" stroke-width="1.6"/><circle cx="50" cy="61" r="0.9" fill="${LINE}"/><circle cx="50" cy="66" r="0.9" fill="${LINE}"/>`;
  }
  const cornerPip = rank === 'K' ? pip(suit, 32.5, 17, 8, ink) : pip(suit, 67.5, 17, 8, ink);
  const item = courtItem(rank, suit, ink);
  const behind = rank === 'K' && suit === 'H';
  return body + (behind ? item : '') + collar + courtHead(rank, suit, ink) + (behind ? '' : item) + cornerPip;
}

/** @param {string} rank @param {Suit} suit @param {string} ink */
function courtBody(rank, suit, ink) {
  const half = courtHalf(rank, suit, ink);
  return (
    `<rect x="25" y="9" width="50" height="122" rx="3" fill="#fdf7ea" stroke="${ink}" stroke-width="1.2"/>` +
    half +
    `<g transform="rotate(180 50 70)">${half}</g>` +
    `<path d="M27,70H73" stroke="${GOLD}" stroke-width="1.2"/>` +
    `<rect x="27" y="11" width="46" height="118" rx="2" fill="none" stroke="${GOLD}" stroke-width="0.8"/>`
  );
}

// ---------- the joker ----------

/**
 * The joker: JOKER down the index, a jester under a star, purple and green.
 * @param {typeof INDEX.normal} at
 */
function jokerFace(at) {
  const x = at.x + 1;
  const letters = 'JOKER'
    .split('')
    .map((ch, i) => `<text x="${x}" y="${n(at.jokerFont * 1.25 + i * at.jokerStep)}" font-size="${at.jokerFont}" text-anchor="middle" ${FONT}>${ch}</text>`)
    .join('');
  const starY = n(at.jokerFont * 1.25 + 4 * at.jokerStep + 13);
  const index = `<g fill="${JOKER_INK}">${letters}<path d="${starPath(x, Number(starY), 7, 3)}" fill="${JOKER_GREEN}"/></g>`;
  // The tunic's hem: points in the other half's colour, a bell on each.
  let hem = '';
  for (let i = 0; i < 4; i++) {
    const x = 31 + i * 9.5;
    hem += `<path d="M${n(x)},117.5L${n(x + 9.5)},117.5L${n(x + 4.75)},125Z" fill="${i < 2 ? JOKER_GREEN : JOKER_INK}" stroke="${LINE}" stroke-width="0.4"/><circle cx="${n(x + 4.75)}" cy="126" r="1.5" fill="${GOLD}" stroke="${LINE}" stroke-width="0.3"/>`;
  }
  // Motley: the body and the cap split purple and green, gold buttons.
  const ruff = [];
  for (let i = 0; i <= 8; i++) ruff.push(`${n(33 + i * 4.25)},${i % 2 ? 88 : 82}`);
  const jester =
    `<path d="${starPath(50, 64, 29, 13)}" fill="#fbe3a0"/>` +
    `<path d="M31,118V98C31,90 38,85 50,85V118Z" fill="${JOKER_INK}"/>` +
    `<path d="M69,118V98C69,90 62,85 50,85V118Z" fill="${JOKER_GREEN}"/>` +
    hem +
    `<g fill="${GOLD}" stroke="${LINE}" stroke-width="0.4"><path d="M50,93L52.4,96.5L50,100L47.6,96.5Z"/><path d="M50,103L52.4,106.5L50,110L47.6,106.5Z"/><path d="M50,113L52.4,116.5L50,120L47.6,116.5Z"/></g>` +
    `<path d="M31,85L${ruff.join('L')}L69,85L69,90L31,90Z" fill="#fff" stroke="${GOLD}" stroke-width="1"/>` +
    `<ellipse cx="50" cy="68" rx="11" ry="13" fill="${SKIN}" stroke="${LINE}" stroke-width="0.6"/>` +
    // The cap: three floppy points with bells.
    `<path d="M38.6,60C35,51 31,46 27,50C30,41 38,42 44,50Z" fill="${JOKER_GREEN}" stroke="${LINE}" stroke-width="0.5"/>` +
    `<path d="M61.4,60C65,51 69,46 73,50C70,41 62,42 56,50Z" fill="${JOKER_INK}" stroke="${LINE}" stroke-width="0.5"/>` +
    `<path d="M39,59C38,46 44,36 50,24V59Z" fill="${JOKER_INK}" stroke="${LINE}" stroke-width="0.5"/>` +
    `<path d="M61,59C62,46 56,36 50,24V59Z" fill="${JOKER_GREEN}" stroke="${LINE}" stroke-width="0.5"/>` +
    `<path d="M38.4,58C44,55 56,55 61.6,58L61,62C56,59 44,59 39,62Z" fill="${GOLD}" stroke="${LINE}" stroke-width="0.4"/>` +
    `<g fill="${GOLD}" stroke="${LINE}" stroke-width="0.4"><circle cx="27" cy="50" r="2.6"/><circle cx="73" cy="50" r="2.6"/><circle cx="50" cy="23" r="2.8"/></g>` +
    // Face: eyes, a red nose, a wide smile, diamond marks on the cheeks.
    `<circle cx="45.6" cy="66" r="1.2" fill="${LINE}"/><circle cx="54.4" cy="66" r="1.2" fill="${LINE}"/>` +
    `<path d="M43.4,63Q45.6,61.6 47.8,63M52.2,63Q54.4,61.6 56.6,63" fill="none" stroke="${LINE}" stroke-width="0.5"/>` +
    `<circle cx="50" cy="70" r="1.8" fill="#d8344f"/>` +
    `<path d="M44,73.4Q50,79.6 56,73.4Q50,76.6 44,73.4Z" fill="#b8283d" stroke="#b8283d" stroke-width="0.6" stroke-linejoin="round"/>` +
    `<path d="M42.4,70.4L43.6,72.4L42.4,74.4L41.2,72.4ZM57.6,70.4L58.8,72.4L57.6,74.4L56.4,72.4Z" fill="${JOKER_GREEN}"/>`;
  return (
    paper('#fbf6ff', JOKER_INK) +
    `<rect x="3" y="3" width="94" height="134" rx="5.5" fill="none" stroke="${GOLD}" stroke-width="1"/>` +
    scaled(jester, at.body) +
    index +
    `<g transform="rotate(180 50 70)">${index}</g>`
  );
}

// ---------- public faces ----------

/**
 * The inner markup of a face in the 100 x 140 box.
 * @param {string} code @param {FaceOptions} opts
 */
function faceInner(code, opts) {
  const c = parse(code);
  const at = indexOf(opts);
  if (c.joker) return jokerFace(at);
  const ink = (opts.fourColour ? INK4 : INK2)[c.suit];
  let body;
  if (c.rank === 'A') body = aceBody(c.suit, ink);
  else if ('JQK'.includes(c.rank)) body = courtBody(c.rank, c.suit, ink);
  else body = numberBody(c.rank, c.suit, ink);
  return paper() + scaled(body, at.body) + indices(c.rank, c.suit, ink, at);
}

/**
 * Markup drawn `k` times its size about the card's centre.
 * @param {string} inner @param {number} k
 */
const scaled = (inner, k) => (k === 1 ? inner : `<g transform="translate(50 70) scale(${k}) translate(-50 -70)">${inner}</g>`);

/**
 * An `<svg>` element's markup for the face of `code` (record notation:
 * rank 2-9, T, J, Q, K, A and suit S, H, D, C, or `JK`); throws on an
 * unknown code. Scales to its box.
 * @param {string} code
 * @param {FaceOptions} [opts]
 * @returns {string}
 */
export function cardSvg(code, opts = {}) {
  return svg(faceInner(code, opts), cardTitle(code), opts);
}

/** The back's inner markup: a lattice of diamonds round a medallion. */
function backInner() {
  const x0 = 6;
  const y0 = 6;
  const x1 = 94;
  const y1 = 134;
  // Diagonal lines across the inner panel, clipped by hand (no clip path).
  let d = '';
  const step = 8;
  for (let c = x0 - (y1 - y0); c <= x1; c += step) {
    // x - y = c - y0 ... lines of slope +1 through (c, y0).
    const ax = Math.max(x0, c);
    const ay = y0 + (ax - c);
    const bx = Math.min(x1, c + (y1 - y0));
    const by = y0 + (bx - c);
    if (bx > ax) d += `M${n(ax)},${n(ay)}L${n(bx)},${n(by)}`;
  }
  for (let c = x0; c <= x1 + (y1 - y0); c += step) {
    // lines of slope -1 through (c, y0).
    const ax = Math.min(x1, c);
    const ay = y0 + (c - ax);
    const bx = Math.max(x0, c - (y1 - y0));
    const by = y0 + (c - bx);
    if (ax > bx) d += `M${n(ax)},${n(ay)}L${n(bx)},${n(by)}`;
  }
  return (
    paper() +
    `<rect x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" rx="4" fill="#23427e"/>` +
    `<path d="${d}" stroke="#4b74c0" stroke-width="1.3"/>` +
    `<rect x="${x0 + 3}" y="${y0 + 3}" width="${x1 - x0 - 6}" height="${y1 - y0 - 6}" rx="3" fill="none" stroke="${GOLD}" stroke-width="1"/>` +
    `<ellipse cx="50" cy="70" rx="22" ry="28" fill="#23427e" stroke="${GOLD}" stroke-width="1.4"/>` +
    `<ellipse cx="50" cy="70" rx="18" ry="24" fill="none" stroke="#4b74c0" stroke-width="0.8"/>` +
    pip('S', 50, 58, 11, '#f4f1ea') +
    pip('H', 40, 70, 11, '#f07a8a') +
    pip('D', 60, 70, 11, '#f07a8a') +
    pip('C', 50, 82, 11, '#f4f1ea') +
    `<path d="${starPath(50, 70, 3.4, 1.4, 4)}" fill="${GOLD}"/>`
  );
}

/**
 * An `<svg>` element's markup for the back of a card (the stock, other
 * players' hands, a foot).
 * @param {FaceOptions} [opts]
 * @returns {string}
 */
export function backSvg(opts = {}) {
  return svg(backInner(), 'Face-down card', opts);
}

/** Edge colour, word and default top card of each kind of canasta. */
const KINDS = {
  natural: { edge: '#c8102e', word: 'NATURAL', suit: 'H', plain: '#c8102e' },
  mixed: { edge: '#1b1c20', word: 'MIXED', suit: 'S', plain: '#1b1c20' },
  wild: { edge: GOLD, word: 'WILD', suit: 'H', plain: GOLD },
  samba: { edge: JOKER_GREEN, word: 'SAMBA', suit: 'H', plain: JOKER_GREEN },
};

/**
 * A plain top card in the kind's colour, when the caller names no card.
 * @param {string} fill
 */
function plainTop(fill) {
  return (
    paper(fill, '#ffffff') +
    `<rect x="5" y="5" width="90" height="130" rx="4.5" fill="none" stroke="#fff" stroke-width="1.2" opacity="0.8"/>` +
    `<path d="${starPath(50, 56, 24, 10)}" fill="#fff"/>`
  );
}

/**
 * A squared-up canasta: a stack of cards with the top card showing, its
 * edges and a band in the kind's colour with the kind's word. `topCode` is a
 * card code, a rank alone (the suit then follows the rule books: a red card
 * on a natural canasta, a black one on a mixed), or null for a plain card in
 * the kind's colour (red natural, black mixed, gold wild, green samba).
 * @param {string | null | undefined} topCode
 * @param {CanastaKind} kind
 * @param {FaceOptions & {cards?: number}} [opts] `cards`: how many edges show (default 6)
 * @returns {string}
 */
export function canastaSvg(topCode, kind, opts = {}) {
  const k = KINDS[kind];
  if (!k) throw new Error(`not a kind of canasta: ${JSON.stringify(kind)} (natural, mixed, wild or samba)`);
  let code = topCode == null || topCode === '' ? null : String(topCode).trim().toUpperCase();
  if (code && code.length === 1) code = code === 'T' || RANKS.includes(code) ? code + k.suit : code;
  const top = code ? faceInner(code, opts) : plainTop(k.plain);
  const layers = Math.max(1, Math.min(12, opts.cards ?? 6));
  const off = 1.5;
  let stack = '';
  for (let i = layers; i >= 1; i--) {
    stack += `<rect x="${n(0.75 + i * off)}" y="${n(0.75 + i * off)}" width="98.5" height="138.5" rx="7" fill="#fff" stroke="${k.edge}" stroke-width="1.2"/>`;
  }
  const band =
    `<rect x="10" y="102" width="80" height="17" rx="3" fill="${k.edge}" stroke="#fff" stroke-width="1.2" opacity="0.94"/>` +
    `<text x="50" y="115.5" font-size="12.5" text-anchor="middle" fill="#fff" ${FONT} letter-spacing="0.5">${k.word}</text>`;
  const size = 100 + layers * off + 1;
  const label = `${kind[0].toUpperCase()}${kind.slice(1)} canasta${code ? `, ${cardTitle(code)} on top` : ''}`;
  return svg(`${stack}<g>${top}</g>${band}`, label, opts, `0 0 ${n(size)} ${n(size + 40)}`);
}
