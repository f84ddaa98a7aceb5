// @ts-check
// A player's words for what happens at the table: cards as they are drawn
// (10♦, J♠, Joker), melds by rank ("the meld of jacks"), moves as sentences.
// The record notation (`add 0 7C`) stays in the structured fields and the
// Advanced panel; nothing here is shown in it. Pure: unit-tested under Node.

const SUIT = { C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660' };
/** @type {Record<string, string>} */
const PLURAL = {
  3: 'threes', 4: 'fours', 5: 'fives', 6: 'sixes', 7: 'sevens', 8: 'eights', 9: 'nines',
  T: 'tens', J: 'jacks', Q: 'queens', K: 'kings', A: 'aces', 2: 'twos',
};

/**
 * A card as drawn on it: `10♦`, `J♠`, `Joker`.
 * @param {string} code
 */
export function cardWord(code) {
  const c = String(code).toUpperCase();
  if (c === 'JK') return 'Joker';
  const rank = c[0] === 'T' ? '10' : c[0];
  return `${rank}${/** @type {Record<string, string>} */ (SUIT)[c[1]] || c[1] || ''}`;
}

/**
 * Cards as drawn, joined: `7♠ 7♥ Joker`.
 * @param {string[]} codes
 */
export const cardsWords = (codes) => codes.map(cardWord).join(' ');

/**
 * A rank in the plural, as players say it: `aces`, `tens`, `sevens`.
 * @param {string} rank a rank letter (`A`, `T`, `7`)
 */
export const rankPlural = (rank) => PLURAL[rank] || `${rank}s`;

/**
 * A meld named by its label: `jacks`, `wild cards`, `the run 4–10♥`.
 * @param {string | undefined} label
 */
export function meldName(label) {
  if (!label) return 'meld';
  if (label === 'wild') return 'meld of wild cards';
  if (PLURAL[label]) return `meld of ${PLURAL[label]}`;
  return `run ${label.replace(/T/g, '10')}`;
}

/**
 * The groups of an action's cards (`meld 7S 7H / KS KD KC`).
 * @param {string} rest the action without its verb
 */
const groups = (rest) =>
  rest
    .split('/')
    .map((g) => g.trim().split(/\s+/).filter(Boolean))
    .filter((g) => g.length);

/**
 * `a`, `b and c`, `a, b and c`.
 * @param {string[]} parts
 */
export function andList(parts) {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * A move as a sentence: `Ann discarded 9♣`, `You took the pile (9 cards) with
 * 7♠ 7♥`. `who` names the player (`You` for this seat), `their` its side's
 * melds (`your`, `their`), `meld` the label of the meld an add names.
 * @param {{action: string, took?: number, meld?: string, stand_in?: boolean}} move
 * @param {string} who
 * @param {string} their
 */
export function moveWords(move, who, their) {
  const [verb, ...restParts] = move.action.trim().split(/\s+/);
  const rest = restParts.join(' ');
  const you = who === 'You';
  let text;
  switch (verb) {
    case 'draw':
      text = `${who} drew from the stock`;
      break;
    case 'discard':
      text = `${who} discarded ${cardWord(restParts[0] || '')}`;
      break;
    case 'pickup': {
      const took = move.took ? ` (${move.took} card${move.took === 1 ? '' : 's'})` : '';
      const gs = groups(rest);
      if (!gs.length) text = `${who} took the pile${took} onto ${their} ${meldName(move.meld)}`;
      else {
        text = `${who} took the pile${took} with ${cardsWords(gs[0])}`;
        if (gs.length > 1) text += `, and melded ${andList(gs.slice(1).map(cardsWords))}`;
      }
      break;
    }
    case 'meld':
      text = `${who} melded ${andList(groups(rest).map(cardsWords))}`;
      break;
    case 'add':
      text = `${who} added ${cardsWords(restParts.slice(1))} to ${their} ${meldName(move.meld)}`;
      break;
    case 'canasta':
      text = `${who} closed ${their} ${meldName(move.meld)} as a canasta`;
      break;
    case 'ask':
      text = `${who} asked ${you ? 'your' : 'their'} partner: \u201cMay I go out?\u201d`;
      break;
    case 'yes':
      text = `${who} answered yes: go out`;
      break;
    case 'no':
      text = `${who} answered no: not yet`;
      break;
    default:
      text = `${who}: ${move.action}`;
  }
  return move.stand_in ? `${text} (the bot stood in)` : text;
}

/**
 * What an action does, said to the player about to play it: `discard 9♣`,
 * `take the pile with 7♠ 7♥`, `add 7♣ to your meld of sevens`.
 * @param {string} action
 * @param {(i: number) => string | undefined} [labelOf] the label of this side's meld `i`
 */
export function actionWords(action, labelOf = () => undefined) {
  const [verb, ...restParts] = String(action).trim().split(/\s+/);
  const rest = restParts.join(' ');
  switch (verb) {
    case 'draw':
      return 'draw from the stock';
    case 'discard':
      return `discard ${cardWord(restParts[0] || '')}`;
    case 'pickup': {
      const gs = groups(rest);
      if (!gs.length) return 'take the pile onto your meld of its rank';
      const more = gs.length > 1 ? `, and meld ${andList(gs.slice(1).map(cardsWords))}` : '';
      return `take the pile with ${cardsWords(gs[0])}${more}`;
    }
    case 'meld':
      return `meld ${andList(groups(rest).map(cardsWords))}`;
    case 'add':
      return `add ${cardsWords(restParts.slice(1))} to your ${meldName(labelOf(Number(restParts[0])))}`;
    case 'canasta':
      return `close your ${meldName(labelOf(Number(restParts[0])))} as a canasta`;
    case 'ask':
      return 'ask your partner whether you may go out';
    case 'yes':
      return 'answer yes';
    case 'no':
      return 'answer no';
    default:
      return action;
  }
}

/**
 * A refusal in a sentence: `You cannot discard 9♣: the turn starts with a draw.`
 * @param {string | null} action the action refused (record notation)
 * @param {string} reason the server's words
 * @param {(i: number) => string | undefined} [labelOf]
 */
export function refusalWords(action, reason, labelOf) {
  const why = String(reason || 'refused').replace(/`([^`]*)`/g, '$1');
  const end = /[.!?]$/.test(why) ? '' : '.';
  if (!action) return `${why.charAt(0).toUpperCase()}${why.slice(1)}${end}`;
  return `You cannot ${actionWords(action, labelOf)}: ${why}${end}`;
}
