// @ts-check
// The table's sounds: short, quiet, synthesized with Web Audio (nothing is
// loaded). Off by default; the choice is kept in localStorage. Browsers let
// a page make sound only after the player has touched it, so the
// AudioContext is made on the first click or key press after sound is
// turned on (turning it on with a click counts), never before.

/** @typedef {'draw' | 'discard' | 'meld' | 'pickup' | 'canasta' | 'your_turn' | 'hand_end'} SoundName */

export const SOUND_NAMES = /** @type {const} */ (['draw', 'discard', 'meld', 'pickup', 'canasta', 'your_turn', 'hand_end']);
const STORAGE_KEY = 'canasta.sound';
/** The loudest any sound gets (of full scale): table sounds sit under speech and music. */
const MASTER_GAIN = 0.25;

/** @type {AudioContext | null} */
let ctx = null;
/** @type {GainNode | null} */
let master = null;
/** @type {AudioBuffer | null} */
let noise = null;
let listening = false;

/** Whether sounds are on (off unless the player turned them on). */
export function soundOn() {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

/** Turns sounds on or off and remembers it; call it from the toggle's click so the audio can start there. */
export function setSoundOn(/** @type {boolean} */ on) {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // Storage refused (private mode): the choice lasts this page only.
  }
  if (on) {
    listen();
    // Called from a click or key handler, this is a gesture: start now.
    if (navigator.userActivation?.isActive) unlock();
  } else if (ctx && ctx.state === 'running') {
    ctx.suspend().catch(() => {});
  }
}

/** Makes (or resumes) the AudioContext; only ever called inside a user gesture. */
function unlock() {
  if (!soundOn()) return;
  const Ctor = globalThis.AudioContext || /** @type {any} */ (globalThis).webkitAudioContext;
  if (!Ctor) return;
  if (!ctx) {
    ctx = /** @type {AudioContext} */ (new Ctor());
    master = ctx.createGain();
    master.gain.value = MASTER_GAIN;
    master.connect(ctx.destination);
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
}

/** Waits for gestures (once per page) to start the audio when sound is on. */
function listen() {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  for (const type of ['pointerdown', 'keydown']) {
    window.addEventListener(type, unlock, { capture: true, passive: true });
  }
}

if (typeof window !== 'undefined' && soundOn()) listen();

/** Whether the AudioContext exists (for tests: none before a gesture). */
export function audioStarted() {
  return ctx !== null;
}

/** Plays a table sound when sounds are on and the page has been touched; otherwise nothing. */
export function sound(/** @type {SoundName} */ name) {
  if (!ctx || !master || !soundOn() || ctx.state !== 'running') return;
  try {
    synthesize(ctx, master, name, ctx.currentTime + 0.01);
  } catch (e) {
    console.warn('sound: skipped', e);
  }
}

/** The sound a move makes, from its action in record notation (null for none). @returns {SoundName | null} */
export function soundFor(/** @type {string} */ action) {
  const verb = String(action || '').trim().split(/\s+/)[0];
  switch (verb) {
    case 'draw':
      return 'draw';
    case 'discard':
      return 'discard';
    case 'meld':
    case 'add':
      return 'meld';
    case 'pickup':
      return 'pickup';
    case 'canasta':
      return 'canasta';
    default:
      return null;
  }
}

// ---------------------------------------------------------------- voices

/** White noise, made once per context (a card's rustle is filtered noise). @param {BaseAudioContext} ac */
function noiseBuffer(ac) {
  if (noise && noise.sampleRate === ac.sampleRate && ac === ctx) return noise;
  const buf = ac.createBuffer(1, Math.floor(ac.sampleRate * 0.6), ac.sampleRate);
  const data = buf.getChannelData(0);
  // A fixed generator, so every rustle is the same and tests repeat.
  let seed = 12345;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = (seed / 0x3fffffff) - 1;
  }
  if (ac === ctx) noise = buf;
  return buf;
}

/**
 * A filtered noise burst: a card sliding (`freq` the band's centre).
 * @param {BaseAudioContext} ac @param {AudioNode} out @param {number} t @param {number} len
 * @param {number} freq @param {number} peak @param {number} [sweepTo]
 */
function rustle(ac, out, t, len, freq, peak, sweepTo) {
  const src = ac.createBufferSource();
  src.buffer = noiseBuffer(ac);
  const band = ac.createBiquadFilter();
  band.type = 'bandpass';
  band.Q.value = 1.2;
  band.frequency.setValueAtTime(freq, t);
  if (sweepTo) band.frequency.exponentialRampToValueAtTime(sweepTo, t + len);
  const env = ac.createGain();
  env.gain.setValueAtTime(0.0001, t);
  env.gain.exponentialRampToValueAtTime(peak, t + Math.min(0.015, len / 4));
  env.gain.exponentialRampToValueAtTime(0.0001, t + len);
  src.connect(band).connect(env).connect(out);
  src.start(t);
  src.stop(t + len + 0.02);
}

/**
 * A soft bell-like note: a sine with a quiet octave, quick attack, gentle decay.
 * @param {BaseAudioContext} ac @param {AudioNode} out @param {number} t @param {number} freq
 * @param {number} len @param {number} peak @param {OscillatorType} [type]
 */
function note(ac, out, t, freq, len, peak, type = 'sine') {
  const env = ac.createGain();
  env.gain.setValueAtTime(0.0001, t);
  env.gain.exponentialRampToValueAtTime(peak, t + 0.01);
  env.gain.exponentialRampToValueAtTime(0.0001, t + len);
  env.connect(out);
  for (const [mult, level] of [
    [1, 1],
    [2, 0.18],
  ]) {
    const osc = ac.createOscillator();
    osc.type = type;
    osc.frequency.value = freq * mult;
    const g = ac.createGain();
    g.gain.value = level;
    osc.connect(g).connect(env);
    osc.start(t);
    osc.stop(t + len + 0.02);
  }
}

/**
 * Schedules the sound `name` on `ac` into `out` at time `t`; returns its
 * length in seconds. Exported so tests can render it offline.
 * @param {BaseAudioContext} ac @param {AudioNode} out @param {SoundName} name @param {number} t
 */
export function synthesize(ac, out, name, t) {
  const C5 = 523.25;
  const E5 = 659.25;
  const G5 = 783.99;
  const C6 = 1046.5;
  switch (name) {
    case 'draw':
      rustle(ac, out, t, 0.12, 2600, 0.5, 3800);
      return 0.14;
    case 'discard':
      rustle(ac, out, t, 0.07, 1500, 0.45, 900);
      note(ac, out, t, 170, 0.09, 0.35);
      return 0.1;
    case 'meld':
      rustle(ac, out, t, 0.06, 1800, 0.3);
      note(ac, out, t + 0.02, G5, 0.22, 0.25, 'triangle');
      return 0.26;
    case 'pickup':
      rustle(ac, out, t, 0.42, 900, 0.45, 3200);
      return 0.44;
    case 'canasta':
      [C5, E5, G5, C6].forEach((f, i) => note(ac, out, t + i * 0.07, f, 0.5, 0.22, 'triangle'));
      return 0.75;
    case 'your_turn':
      note(ac, out, t, G5, 0.3, 0.2);
      note(ac, out, t + 0.12, C6, 0.45, 0.2);
      return 0.6;
    case 'hand_end':
      [G5, E5, C5].forEach((f, i) => note(ac, out, t + i * 0.12, f, 0.6, 0.2));
      note(ac, out, t + 0.36, C5 / 2, 0.8, 0.15);
      return 1.2;
    default:
      return 0;
  }
}
