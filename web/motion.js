// @ts-check
// A table that moves: after each render, the cards the last action moved fly
// from where they were to where they are now (the stock to a hand, a hand to
// the pile or a meld, the whole pile swept into the taker's hand).
//
// The table calls `snapshot(root)` before it renders a state and
// `animateTransition(root, shot, state.last, {me, speed})` after (or
// `renderWithMotion(root, render, state.last, {me, speed})` for both).
// Only the page's DOM is read (the attributes of "The table page's DOM":
// `.card` with `data-card`, `data-fresh`, `data-zone`, `data-meld`), so any
// renderer and any card faces work: a flyer is a clone of the card it lands
// on, and the cards that stay where they were but moved (the hand closing
// up after a discard) slide from their old places.
//
// Flyers live in one fixed overlay that takes no pointer events and are
// moved by the Web Animations API on `transform` and `opacity` only, so the
// compositor runs the frames: nothing is laid out or painted while they
// fly. The card each flyer lands on is hidden (`visibility`) until the last
// flyer lands, then all show in one pass. A missing zone or card skips that
// flight; a new transition finishes the running one at once; a hidden tab,
// `prefers-reduced-motion` (the arriving cards fade in instead) or speed 0
// shows the new state without flights.

/** @typedef {{x: number, y: number, w: number, h: number}} Rect */
/** @typedef {{code: string, rect: Rect, fresh: boolean}} CardShot */
/**
 * Where everything was before a render.
 * @typedef {{
 *   zones: Record<string, Rect>,
 *   melds: Record<string, Rect>,
 *   cards: Record<string, CardShot[]>,
 *   pileFaces: HTMLElement[],
 *   meldLooks: Record<string, string>,
 * }} Snapshot
 * `zones` by `data-zone`, `melds` by `data-meld` ("T:I"), `cards` by the
 * place that holds them ("hand", "pile", "stock", "seat-N", "meld:T:I", or ""
 * outside every zone) in document order; `pileFaces` are clones of the
 * pile's cards, top first, so a pickup can show the faces leaving the pile;
 * `meldLooks` each meld's class and attributes (a canasta squared up shows
 * as a change there).
 */
/**
 * The action that produced a state, as the server's `state.last`.
 * @typedef {{seat: number, action: string, took?: number, stand_in?: boolean}} LastAction
 */
/**
 * @typedef {{me?: number | null, speed?: number, drawn?: number, teams?: number[][]}} MotionOptions
 * `me`: the seat whose hand is `data-zone="hand"` (null for a spectator);
 * `speed`: durations' scale (1 normal, 0.5 fast, 0 instant); by default the
 * one `setSpeed` set; `drawn`: how many cards another seat's draw took
 * (its hand size's growth; 1 by default; your own draw is read off the
 * hand); `teams`: each side's seats (`annotations.teams[i].seats`), so an
 * add or a canasta finds the side's meld `T:I` (without it, the meld the
 * render changed).
 */
/**
 * One card's flight.
 * @typedef {{
 *   from: Rect, to: Rect, target: HTMLElement | null, face: HTMLElement,
 *   back?: HTMLElement | null, delay: number, fadeIn?: boolean, fadeOut?: boolean, z?: number,
 * }} Flight
 * `target` is the real card revealed when the flyer lands; `back`, when
 * given, is shown for the first half and turned over to `face` (a draw);
 * `z` stacks flyers that start on one another (the pile's top card highest).
 */

/** Durations at speed 1, in milliseconds. */
const FLIGHT_MS = 380;
const STAGGER_MS = 70;
/** A pile sweep spreads its cards' starts over at most this. */
const SWEEP_SPREAD_MS = 240;
const EASING = 'cubic-bezier(.25,.75,.3,1)';

let defaultSpeed = 1;

/** Sets the speed used when `animateTransition` is given none (1 normal, 0.5 fast, 0 instant). */
export function setSpeed(/** @type {number} */ speed) {
  defaultSpeed = Number.isFinite(speed) && speed >= 0 ? speed : 1;
}

/** The speed `setSpeed` set. */
export function speed() {
  return defaultSpeed;
}

/** @param {Element} el @returns {Rect} */
function rectOf(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left, y: r.top, w: r.width, h: r.height };
}

/** Whether a rect is on the page (an element not displayed has none). @param {Rect | null | undefined} r */
function shown(r) {
  return !!r && r.w > 0 && r.h > 0;
}

/** Where a card is held: its meld, else its zone. @param {Element} card */
function placeOf(card) {
  const meld = card.closest('[data-meld]');
  if (meld) return `meld:${meld.getAttribute('data-meld')}`;
  const zone = card.closest('[data-zone]');
  return zone ? zone.getAttribute('data-zone') || '' : '';
}

/**
 * The elements under `root` matching `selector`, leaving out the flyers
 * (a root such as document.body holds the layer).
 * @param {Element} root @param {string} selector @returns {HTMLElement[]}
 */
function onTable(root, selector) {
  return /** @type {HTMLElement[]} */ ([...root.querySelectorAll(selector)]).filter((e) => !e.closest('[data-motion-layer]'));
}

/** @param {Element} root */
function cardsIn(root) {
  return onTable(root, '.card[data-card]');
}

/** The rects of every zone, meld and card under `root`; take it before a render. */
export function snapshot(/** @type {Element} */ root) {
  /** @type {Snapshot} */
  const shot = { zones: {}, melds: {}, cards: {}, pileFaces: [], meldLooks: {} };
  if (!root) return shot;
  for (const z of onTable(root, '[data-zone]')) {
    const name = z.getAttribute('data-zone');
    const r = rectOf(z);
    if (name && !(name in shot.zones) && shown(r)) shot.zones[name] = r;
  }
  for (const m of onTable(root, '[data-meld]')) {
    const key = m.getAttribute('data-meld');
    const r = rectOf(m);
    if (key && !(key in shot.melds) && shown(r)) shot.melds[key] = r;
    if (key && !(key in shot.meldLooks)) shot.meldLooks[key] = looks(m);
  }
  for (const c of cardsIn(root)) {
    const place = placeOf(c);
    const r = rectOf(c);
    // A card not displayed still counts (arrivals compare counts); its rect is never a source.
    (shot.cards[place] ||= []).push({ code: c.dataset.card || '', rect: r, fresh: c.hasAttribute('data-fresh') });
  }
  const pile = zoneEl(root, 'pile');
  if (pile) {
    shot.pileFaces = cardsIn(pile)
      .filter((c) => c.dataset.card)
      .reverse()
      .map((c) => clean(/** @type {HTMLElement} */ (c.cloneNode(true)), rectOf(c), c));
  }
  return shot;
}

/** A meld's class and attributes, to tell whether a render changed it. @param {Element} m */
function looks(m) {
  return [...m.attributes].map((a) => `${a.name}=${a.value}`).join(' ');
}

/** A parsed action: its verb, the cards from hand in groups, the meld index. */
export function parseAction(/** @type {string} */ action) {
  const words = String(action || '').trim().split(/\s+/).filter(Boolean);
  const verb = words[0] || '';
  let rest = words.slice(1);
  /** @type {number | null} */
  let meld = null;
  if ((verb === 'add' || verb === 'canasta') && rest.length) {
    meld = Number(rest[0]);
    if (!Number.isInteger(meld)) meld = null;
    rest = rest.slice(1);
  }
  /** @type {string[][]} */
  const groups = [[]];
  for (const w of rest) {
    if (w === '/') groups.push([]);
    else groups[groups.length - 1].push(w.toUpperCase());
  }
  return { verb, meld, groups: groups.filter((g) => g.length), cards: groups.flat() };
}

// ---------------------------------------------------------------- running

/** @typedef {{land: () => void, anims: Animation[]}} Flyer */
/** @type {{flyers: Flyer[], done: () => void} | null} */
let running = null;

/** Ends the running transition at once: every card where it belongs. */
export function finishMotion() {
  const r = running;
  running = null;
  if (!r) return;
  for (const f of r.flyers) f.land();
  r.done();
}

if (typeof document !== 'undefined') {
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) finishMotion();
  });
}

/** The overlay the flyers live in (made once). */
function layer() {
  let el = /** @type {HTMLElement | null} */ (document.querySelector('[data-motion-layer]'));
  if (el && el.isConnected) return el;
  el = document.createElement('div');
  el.setAttribute('data-motion-layer', '');
  el.setAttribute('aria-hidden', 'true');
  el.style.cssText =
    'position:fixed;left:0;top:0;width:100vw;height:100vh;pointer-events:none;z-index:2147483000;overflow:hidden;contain:strict;';
  document.body.append(el);
  return el;
}

function reducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Flies the cards `last` moved, from where `shot` saw them to where they
 * are now. Resolves when every card has landed (at once for speed 0, a
 * hidden tab or reduced motion); never rejects.
 * @param {Element} root @param {Snapshot} shot @param {LastAction | null | undefined} last
 * @param {MotionOptions} [opts]
 * @returns {Promise<void>}
 */
export function animateTransition(root, shot, last, opts = {}) {
  finishMotion();
  const scale = opts.speed === undefined ? defaultSpeed : opts.speed;
  if (!root || !shot || !last || typeof last.action !== 'string') return Promise.resolve();
  if (!(scale > 0) || (typeof document !== 'undefined' && document.hidden)) return Promise.resolve();
  try {
    const flights = plan(root, shot, last, opts.me ?? null, opts.drawn, opts.teams);
    if (!flights.length) return Promise.resolve();
    if (reducedMotion()) return fadeIn(flights, scale);
    return fly(flights, settles(root, shot, flights), scale);
  } catch (e) {

    // A table that does not look as expected shows its new state unmoved.
    console.warn('motion: skipped', e);
    return Promise.resolve();
  }
}

/**
 * The whole step in one call: a snapshot, the table's `render()`, then the
 * motion of `last`. Resolves when the cards have landed.
 * @param {Element} root @param {() => void} render @param {LastAction | null | undefined} last
 * @param {MotionOptions} [opts]
 */
export function renderWithMotion(root, render, last, opts) {
  const shot = snapshot(root);
  render();
  return animateTransition(root, shot, last, opts);
}

/** Reduced motion: the arriving cards fade in where they are, nothing travels. */
function fadeIn(/** @type {Flight[]} */ flights, /** @type {number} */ scale) {
  const targets = [...new Set(flights.map((f) => f.target).filter((t) => t && t.isConnected))];
  if (!targets.length) return Promise.resolve();
  return new Promise(/** @param {(v?: void) => void} resolve */ (resolve) => {
    /** @type {Flyer[]} */
    const flyers = targets.map((t) => {
      const a = /** @type {HTMLElement} */ (t).animate([{ opacity: 0 }, { opacity: 1 }], { duration: 200 * scale, easing: 'ease-out' });
      return { anims: [a], land: () => a.finish() };
    });
    track(flyers, resolve, 200 * scale);
  });
}

/**
 * Registers the running transition; it ends when every flyer's animation
 * has (or after `ms` and a margin). A landed flyer stays on its card (its
 * last keyframe fills) until the last one lands; then all the cards show
 * and all the flyers go in one pass, one style and layout for the lot
 * instead of one per card.
 * @param {Flyer[]} flyers @param {() => void} resolve @param {number} ms
 */
function track(flyers, resolve, ms) {
  let left = flyers.length;
  const me = { flyers, done: resolve };
  running = me;
  const landed = () => {
    if (--left > 0 || running !== me) return;
    running = null;
    for (const f of flyers) f.land();
    resolve();
  };
  for (const f of flyers) f.anims[0].finished.then(landed, landed);
  // Animations stall where frames do not run (a tab hidden mid-flight is
  // finished by the visibility handler; this is the last resort).
  setTimeout(() => {
    if (running === me) finishMotion();
  }, ms + 1000);
}

/** Launches the flights; resolves when they have all landed. */
/**
 * @param {Flight[]} flights
 * @param {{el: HTMLElement, dx: number, dy: number, base: string}[]} slides
 * @param {number} scale
 */
function fly(flights, slides, scale) {
  const overlay = layer();
  const duration = FLIGHT_MS * scale;
  // Reads first (rects are in `flights`), then writes: one style pass for
  // the whole batch, none per frame.
  /** @type {Flyer[]} */
  const flyers = [];
  let longest = 0;
  const frag = document.createDocumentFragment();
  try {
    for (const f of flights) launch(f);
    if (flyers.length) for (const s of slides) slide(s);
  } catch (e) {
    // Whatever was started lands now: no card stays hidden.
    for (const f of flyers) f.land();
    throw e;
  }
  if (!flyers.length) return Promise.resolve();
  overlay.append(frag);
  return new Promise(/** @param {(v?: void) => void} resolve */ (resolve) => track(flyers, resolve, longest));

  /**
   * A card that stayed in its place but moved in it (the hand closing up
   * after a discard, opening for a draw) slides from where it was. The
   * slide goes before the card's own transform (a fanned hand keeps its
   * fan); written out rather than `composite: 'add'`, which the compositor
   * does not run. It lands with the flyers.
   * @param {{el: HTMLElement, dx: number, dy: number, base: string}} s
   */
  function slide(s) {
    const a = s.el.animate([{ transform: `translate(${s.dx}px, ${s.dy}px) ${s.base}` }, { transform: `translate(0px, 0px) ${s.base}` }], {
      duration,
      easing: EASING,
    });
    flyers.push({ anims: [a], land: () => a.cancel() });
  }

  /** Makes one flyer (in `frag`), hides its card and starts its animations. @param {Flight} f */
  function launch(f) {
    // Either end not displayed (a zone hidden at this screen size): no flight.
    if (!shown(f.from) || !shown(f.to)) return;
    const box = document.createElement('div');
    // The flyer's own size is its face's; keyframes scale it to each rect.
    const w = parseFloat(f.face.style.width) || f.to.w || 1;
    const h = parseFloat(f.face.style.height) || f.to.h || 1;
    box.style.cssText = `position:absolute;left:0;top:0;width:${w}px;height:${h}px;transform-origin:0 0;will-change:transform,opacity;`;
    if (f.z !== undefined) box.style.zIndex = String(f.z);
    f.face.style.position = 'absolute';
    f.face.style.left = '0';
    f.face.style.top = '0';
    box.append(f.face);
    if (f.back) {
      f.back.style.position = 'absolute';
      f.back.style.left = '0';
      f.back.style.top = '0';
      box.append(f.back);
    }
    frag.append(box);
    const target = f.target;
    /** @type {string} */
    let before = '';
    if (target) {
      before = target.style.visibility;
      target.style.visibility = 'hidden';
    }
    /** @type {Flyer} */
    const flyer = { anims: [], land: () => {} };
    let landed = false;
    flyer.land = () => {
      if (landed) return;
      landed = true;
      for (const a of flyer.anims) a.cancel();
      box.remove();
      if (target) target.style.visibility = before;
    };
    flyers.push(flyer);
    const timing = { duration, delay: f.delay * scale, easing: EASING, fill: /** @type {FillMode} */ ('both') };
    const at = (/** @type {Rect} */ r, lift = 1) =>
      `translate(${r.x}px, ${r.y}px) scale(${(r.w / w) * lift}, ${(r.h / h) * lift})`;
    const mid = midRect(f.from, f.to);
    /** @type {Keyframe[]} */
    const frames = f.back
      ? [
          { transform: at(f.from), opacity: 1 },
          { transform: `translate(${mid.x + mid.w / 2}px, ${mid.y}px) scale(0.02, ${(mid.h / h) * 1.08})`, offset: 0.5 },
          { transform: at(f.to), opacity: 1 },
        ]
      : [
          { transform: at(f.from), opacity: f.fadeIn ? 0 : 1 },
          { transform: at(mid, 1.08), opacity: 1, offset: 0.45 },
          { transform: at(f.to), opacity: f.fadeOut ? 0 : 1 },
        ];
    longest = Math.max(longest, f.delay * scale + duration);
    flyer.anims.push(box.animate(frames, timing));
    if (f.back) {
      // The back shows until the card is edge-on halfway, then the face: the
      // same timing as the flight, so offset 0.5 is the same moment.
      const turn = timing;
      flyer.anims.push(f.back.animate([{ opacity: 1 }, { opacity: 1, offset: 0.5 }, { opacity: 0, offset: 0.5 }, { opacity: 0 }], turn));
      flyer.anims.push(f.face.animate([{ opacity: 0 }, { opacity: 0, offset: 0.5 }, { opacity: 1, offset: 0.5 }, { opacity: 1 }], turn));
    }
  }
}


/** Halfway, lifted a little towards the top of the screen. @param {Rect} a @param {Rect} b @returns {Rect} */
function midRect(a, b) {
  const w = (a.w + b.w) / 2;
  const h = (a.h + b.h) / 2;
  const lift = Math.min(40, Math.hypot(b.x - a.x, b.y - a.y) * 0.12);
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - lift, w, h };
}

// ---------------------------------------------------------------- planning

/**
 * A card-sized box centred in `zone` at `scale` of `w`×`h`.
 * @param {Rect} zone @param {number} w @param {number} h @param {number} [scale]
 * @returns {Rect}
 */
function boxIn(zone, w, h, scale = 0.6) {
  const bw = w * scale;
  const bh = h * scale;
  return { x: zone.x + (zone.w - bw) / 2, y: zone.y + (zone.h - bh) / 2, w: bw, h: bh };
}

/** A flyer's copy of a card: no ids, no state marks, sized as `rect`. @param {HTMLElement} el @param {Rect} rect @param {Element} [from] */
function clean(el, rect, from) {
  // A flyer keeps what its face is drawn from (class, data-card) and drops
  // what names a place or a state; `data-flyer` says what it shows.
  const code = el.getAttribute('data-card');
  el.setAttribute('data-flyer', code ? code : code === '' ? 'back' : 'meld');
  for (const e of [el, ...el.querySelectorAll('*')]) {
    for (const a of ['id', 'data-zone', 'data-testid', 'data-fresh', 'tabindex']) e.removeAttribute(a);
  }
  el.classList.remove('selected', 'fresh');
  el.style.visibility = 'visible';
  el.style.margin = '0';
  el.style.width = `${rect.w}px`;
  el.style.height = `${rect.h}px`;
  el.style.boxSizing = 'border-box';
  el.style.transform = 'none';
  el.style.setProperty('--w', `${rect.w}px`);
  if (from) {
    const cs = getComputedStyle(from);
    el.style.fontSize = cs.fontSize;
  }
  return el;
}

/** A face-down card: a clone of one on the table, else a plain back. @param {Element} root @param {Rect} rect */
function backCard(root, rect) {
  const down = onTable(root, '.card[data-card=""]')[0];
  if (down) return clean(/** @type {HTMLElement} */ (down.cloneNode(true)), rect);
  const el = document.createElement('div');
  el.className = 'card back';
  el.setAttribute('data-card', '');
  el.style.cssText =
    'border-radius:8%/6%;border:2px solid #fff;background:repeating-linear-gradient(45deg,#2b4c9a 0 4px,#3a61b8 4px 8px);box-shadow:0 1px 3px rgba(0,0,0,.35);';
  return clean(el, rect);
}

/** Takes the first unused card of `code` from a snapshot list (any card when `code` is ""). @param {CardShot[] | undefined} list @param {string} code @param {Set<CardShot>} used */
function takeShot(list, code, used) {
  if (!list) return null;
  for (const c of list) {
    if (!used.has(c) && (c.code === code || code === '')) {
      used.add(c);
      return c;
    }
  }
  return null;
}

/**
 * The cards of a place that are new since the snapshot, as elements: for
 * each code, as many as its count grew, preferring `data-fresh` ones.
 * @param {HTMLElement[]} now @param {CardShot[] | undefined} before
 */
function arrivals(now, before) {
  /** @type {Map<string, number>} */
  const had = new Map();
  for (const c of before || []) had.set(c.code, (had.get(c.code) || 0) + 1);
  /** @type {Map<string, HTMLElement[]>} */
  const byCode = new Map();
  for (const el of now) {
    const code = el.dataset.card || '';
    if (!byCode.has(code)) byCode.set(code, []);
    /** @type {HTMLElement[]} */ (byCode.get(code)).push(el);
  }
  /** @type {HTMLElement[]} */
  const out = [];
  for (const [code, els] of byCode) {
    const extra = els.length - (had.get(code) || 0);
    if (extra <= 0) continue;
    const fresh = els.filter((e) => e.hasAttribute('data-fresh'));
    const rest = els.filter((e) => !e.hasAttribute('data-fresh'));
    out.push(...[...fresh, ...rest.reverse()].slice(0, extra));
  }
  // Back into document order, so flights go left to right.
  return out.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}

/** @param {Element} root @param {string} name */
function zoneEl(root, name) {
  return onTable(root, `[data-zone="${name}"]`)[0] || null;
}

/**
 * Every card now in a meld that was not there before, by meld.
 * @param {Element} root @param {Snapshot} shot
 * @returns {{key: string, el: Element, cards: HTMLElement[]}[]}
 */
function meldArrivals(root, shot) {
  const out = [];
  for (const m of onTable(root, '[data-meld]')) {
    const key = m.getAttribute('data-meld') || '';
    const cards = arrivals(cardsIn(m), shot.cards[`meld:${key}`]);
    out.push({ key, el: m, cards });
  }
  return out;
}

/**
 * The cards that stayed in the hand, the pile or a meld but moved there:
 * each card now in such a place (not one a flight lands on) is paired with
 * the same card of that place in the snapshot, in order.
 * @param {Element} root @param {Snapshot} shot @param {Flight[]} flights
 * @returns {{el: HTMLElement, dx: number, dy: number, base: string}[]}
 */
export function settles(root, shot, flights) {
  const landing = new Set(flights.map((f) => f.target));
  /** @type {Map<string, HTMLElement[]>} */
  const byPlace = new Map();
  for (const c of cardsIn(root)) {
    if (landing.has(c)) continue;
    const place = placeOf(c);
    if (place !== 'hand' && place !== 'pile' && !place.startsWith('meld:')) continue;
    if (!byPlace.has(place)) byPlace.set(place, []);
    /** @type {HTMLElement[]} */ (byPlace.get(place)).push(c);
  }
  const out = [];
  for (const [place, els] of byPlace) {
    const used = new Set();
    for (const el of els) {
      const was = takeShot(shot.cards[place], el.dataset.card || '', used);
      if (!was || !shown(was.rect)) continue;
      const now = rectOf(el);
      if (!shown(now)) continue;
      const dx = was.rect.x - now.x;
      const dy = was.rect.y - now.y;
      if (Math.abs(dx) <= 1 && Math.abs(dy) <= 1) continue;
      const t = getComputedStyle(el).transform;
      out.push({ el, dx, dy, base: t && t !== 'none' ? t : '' });
    }
  }
  return out;
}

/**
 * Works out the flights for `last` (no DOM writes).
 * @param {Element} root @param {Snapshot} shot @param {LastAction} last @param {number | null} me
 * @param {number} [drawn] cards another seat's draw took
 * @param {number[][]} [teams] each side's seats
 * @returns {Flight[]}
 */
export function plan(root, shot, last, me, drawn = 1, teams) {
  const { verb, cards, meld } = parseAction(last.action);
  const side = Array.isArray(teams) ? teams.findIndex((t) => Array.isArray(t) && t.includes(last.seat)) : -1;
  /** The side's meld `T:I` when the sides are known. */
  const meldKey = side >= 0 && meld !== null ? `${side}:${meld}` : null;
  const sideMeld = meldKey ? onTable(root, `[data-meld="${meldKey}"]`)[0] || null : null;
  const mine = me !== null && me !== undefined && last.seat === me;
  const seatZone = mine ? 'hand' : `seat-${last.seat}`;
  const seatNow = zoneEl(root, seatZone);
  const seatRect = shot.zones[seatZone] || (seatNow && shown(rectOf(seatNow)) ? rectOf(seatNow) : null);
  /** @type {Flight[]} */
  const flights = [];
  const usedShots = new Set();

  /** Where a card leaves the seat from: its old rect in my hand, else the seat's zone. @param {string} code @param {Rect} size */
  const fromSeat = (code, size) => {
    if (mine) {
      const s = takeShot(shot.cards.hand, code, usedShots);
      if (s) return { rect: s.rect, fade: false };
    }
    return seatRect ? { rect: boxIn(seatRect, size.w, size.h), fade: true } : null;
  };

  /** Flies cards from the seat into melds: the hand's cards of the action, each onto its new place. @param {string[]} codes @param {number} delay0 */
  const seatToMelds = (codes, delay0, pool = meldArrivals(root, shot)) => {
    let i = 0;
    for (const code of codes) {
      const dest = takeArrival(pool, code, meld, meldKey);
      if (dest) {
        const to = rectOf(dest);
        const from = fromSeat(code, to);
        if (!from) continue;
        flights.push({ from: from.rect, to, target: dest, face: clean(/** @type {HTMLElement} */ (dest.cloneNode(true)), to, dest), delay: delay0 + i * STAGGER_MS, fadeIn: from.fade });
        i++;
        continue;
      }
      // No card of that code shows in a meld (a canasta squared up shows its
      // top card only): a back goes into the meld that changed.
      const into = sideMeld || changedMeld(root, shot, meld);
      const was = mine ? (shot.cards.hand || []).find((c) => c.code === code) : null;
      const size = was ? was.rect : { x: 0, y: 0, w: 44, h: 62 };
      const from = fromSeat(code, size);
      if (!into || !from) continue;
      const to = boxIn(rectOf(into), size.w, size.h, 0.6);
      flights.push({ from: from.rect, to, target: null, face: backCard(root, size), delay: delay0 + i * STAGGER_MS, fadeIn: from.fade, fadeOut: true });
      i++;
    }
    return pool;
  };

  if (verb === 'draw') {
    const stockCards = shot.cards.stock || [];
    const stockRect = stockCards.length ? stockCards[stockCards.length - 1].rect : shot.zones.stock;
    if (!stockRect) return flights;
    if (mine) {
      const hand = zoneEl(root, 'hand');
      if (!hand) return flights;
      const fresh = arrivals(cardsIn(hand), shot.cards.hand);
      fresh.forEach((dest, i) => {
        const to = rectOf(dest);
        const from = stockRect.w ? sized(stockRect, to) : stockRect;
        flights.push({ from, to, target: dest, face: clean(/** @type {HTMLElement} */ (dest.cloneNode(true)), to, dest), back: backCard(root, to), delay: i * STAGGER_MS });
      });
    } else if (seatRect) {
      const to = boxIn(seatRect, stockRect.w, stockRect.h);
      const n = Math.max(1, Math.min(Math.floor(drawn) || 1, 12));
      for (let i = 0; i < n; i++) {
        flights.push({ from: stockRect, to, target: null, face: backCard(root, stockRect), delay: i * STAGGER_MS, fadeOut: true });
      }
    }
  } else if (verb === 'discard' && cards.length) {
    const pile = zoneEl(root, 'pile');
    if (!pile) return flights;
    const tops = cardsIn(pile).filter((c) => c.dataset.card === cards[0]);
    const dest = tops[tops.length - 1];
    if (!dest) return flights;
    const to = rectOf(dest);
    const from = fromSeat(cards[0], to);
    if (!from) return flights;
    flights.push({ from: from.rect, to, target: dest, face: clean(/** @type {HTMLElement} */ (dest.cloneNode(true)), to, dest), delay: 0, fadeIn: from.fade });
  } else if (verb === 'meld' || verb === 'add') {
    seatToMelds(cards, 0);
  } else if (verb === 'pickup') {
    planPickup(root, shot, last, { mine, seatRect, cards, flights, seatToMelds });
  } else if (verb === 'canasta' && meld !== null) {
    // Squaring up a canasta: no card travels; the meld settles in place.
    // Meld I of the seat's side: the one numbered I whose look changed (the
    // side is not in the DOM's contract), else the first numbered I.
    const numbered = onTable(root, '[data-meld]').filter((el) => (el.getAttribute('data-meld') || '').endsWith(`:${meld}`));
    const changed = numbered.find((el) => (shot.meldLooks || {})[el.getAttribute('data-meld') || ''] !== looks(el));
    const m = sideMeld || changed || numbered[0];
    if (m) {
      const to = rectOf(m);
      flights.push({ from: { x: to.x - to.w * 0.04, y: to.y - to.h * 0.04, w: to.w * 1.08, h: to.h * 1.08 }, to, target: /** @type {HTMLElement} */ (m), face: clean(/** @type {HTMLElement} */ (m.cloneNode(true)), to, m), delay: 0 });
    }
  }
  return flights;
}

/** `rect`'s position with `size`'s size (centred), so a flyer keeps its shape. @param {Rect} rect @param {Rect} size */
function sized(rect, size) {
  return { x: rect.x + (rect.w - size.w) / 2, y: rect.y + (rect.h - size.h) / 2, w: size.w, h: size.h };
}

/**
 * The meld a lay went into when its cards do not show: numbered `index`
 * (an add) and changed, else any meld that is new or changed.
 * @param {Element} root @param {Snapshot} shot @param {number | null} index
 */
function changedMeld(root, shot, index) {
  const melds = onTable(root, '[data-meld]');
  const changed = (/** @type {HTMLElement} */ m) => {
    const key = m.getAttribute('data-meld') || '';
    return !(key in (shot.meldLooks || {})) || shot.meldLooks[key] !== looks(m) || (shot.cards[`meld:${key}`] || []).length !== cardsIn(m).length;
  };
  const ofIndex = index === null ? [] : melds.filter((m) => (m.getAttribute('data-meld') || '').endsWith(`:${index}`));
  return ofIndex.find(changed) || melds.find(changed) || ofIndex[0] || null;
}

/**
 * The next new meld card of `code` (for `add I`, one in the side's meld
 * `key` first, then in a meld numbered I).
 * @param {{key: string, el: Element, cards: HTMLElement[]}[]} pool @param {string} code
 * @param {number | null} index @param {string | null} [key]
 */
function takeArrival(pool, code, index, key = null) {
  const rank = (/** @type {{key: string}} */ m) => (m.key === key ? 0 : index !== null && m.key.endsWith(`:${index}`) ? 1 : 2);
  const order = [...pool].sort((a, b) => rank(a) - rank(b));
  for (const m of order) {
    const i = m.cards.findIndex((c) => c.dataset.card === code);
    if (i >= 0) return m.cards.splice(i, 1)[0];
  }
  return null;
}

/**
 * A pickup: the pile's top card and the hand's cards go to the meld(s), and
 * the rest of the pile sweeps into the taker's hand (face up into mine,
 * into the seat's zone for another), one card after another.
 * @param {Element} root @param {Snapshot} shot @param {LastAction} last
 * @param {{mine: boolean, seatRect: Rect | null, cards: string[], flights: Flight[],
 *   seatToMelds: (codes: string[], delay0: number, pool?: {key: string, el: Element, cards: HTMLElement[]}[]) => {key: string, el: Element, cards: HTMLElement[]}[]}} ctx
 */
function planPickup(root, shot, last, { mine, seatRect, cards, flights, seatToMelds }) {
  const pileShots = [...(shot.cards.pile || [])].filter((c) => c.code).reverse(); // top first
  const pileRect = pileShots.length ? pileShots[0].rect : shot.zones.pile;
  if (!pileRect) return;
  const took = Math.max(last.took || pileShots.length || 1, 1);
  const topCode = pileShots.length ? pileShots[0].code : '';
  const pool = meldArrivals(root, shot);
  // The top card onto its meld.
  let rest = took;
  if (topCode) {
    const dest = takeArrival(pool, topCode, null, null);
    if (dest) {
      const to = rectOf(dest);
      // The pile's own copy of its top card when it had one (it shrinks onto the meld).
      const face = shot.pileFaces[0] ? /** @type {HTMLElement} */ (shot.pileFaces[0].cloneNode(true)) : clean(/** @type {HTMLElement} */ (dest.cloneNode(true)), to, dest);
      const from = shot.pileFaces[0] ? pileRect : sized(pileRect, to);
      flights.push({ from, to, target: dest, face, delay: 0, z: took + 1 });
    }
    rest--;
  }
  // The hand's cards of the action join it.
  seatToMelds(cards, STAGGER_MS, pool);
  if (rest <= 0) return;
  const step = Math.min(STAGGER_MS / 2, SWEEP_SPREAD_MS / rest);
  const start = STAGGER_MS / 2;
  const bottom = pileShots[pileShots.length - 1];
  /**
   * Where a card under the top leaves from: its own place when the pile
   * showed it (`k`, counted from the top), else stacked under the lowest
   * card shown, a little askew (the i-th of those hidden).
   * @param {number} k @param {number} i @param {Rect} size
   */
  const source = (k, i, size) => {
    if (k > 0 && pileShots[k]) return sized(pileShots[k].rect, size);
    const r = sized(bottom ? bottom.rect : pileRect, size);
    return { ...r, x: r.x + ((i % 3) - 1) * 2, y: r.y + Math.min(i, 12) * 0.6 };
  };
  // Cards on top leave first and fly over those under them.
  const z = (/** @type {number} */ i) => took - i;
  if (mine) {
    const hand = zoneEl(root, 'hand');
    const dests = hand ? arrivals(cardsIn(hand), shot.cards.hand).slice(0, rest) : [];
    // Each arriving card starts where the pile showed that card.
    const seen = new Set();
    const placed = dests.map((dest) => {
      const k = pileShots.findIndex((p, j) => j > 0 && !seen.has(j) && p.code === dest.dataset.card);
      if (k > 0) seen.add(k);
      return { dest, k: k > 0 ? k : Infinity };
    });
    placed.sort((a, b) => a.k - b.k);
    let hidden = 0;
    placed.forEach(({ dest, k }, i) => {
      const to = rectOf(dest);
      const from = source(k, k === Infinity ? hidden++ : 0, to);
      flights.push({ from, to, target: dest, face: clean(/** @type {HTMLElement} */ (dest.cloneNode(true)), to, dest), delay: start + i * step, z: z(i + 1) });
    });
  } else if (seatRect) {
    const size = pileRect;
    for (let i = 0; i < rest; i++) {
      const k = i + 1;
      const from = source(k, k - pileShots.length, size);
      const face = shot.pileFaces[k] ? /** @type {HTMLElement} */ (shot.pileFaces[k].cloneNode(true)) : backCard(root, size);
      flights.push({ from, to: boxIn(seatRect, size.w, size.h, 0.5), target: null, face, delay: start + i * step, fadeOut: true, z: z(k) });
    }
  }
}
