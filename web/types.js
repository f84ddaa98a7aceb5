// @ts-check
// The server's messages (docs/server-api.md) as JSDoc types, for
// `tsc --noEmit` (web/jsconfig.json) to check the table's modules against.
// Nothing runs here; the module exports nothing but types.

/**
 * @typedef {'human' | 'bot'} SeatKind
 *
 * @typedef {object} SeatInfo A seat of a table summary.
 * @property {number} seat
 * @property {SeatKind} kind
 * @property {string} [bot] the bot's name (bot seats)
 * @property {string | null} [name] the player's name (human seats)
 * @property {boolean} [claimed]
 * @property {boolean} [connected]
 * @property {boolean} [stand_in] the bot plays this seat now (an older server's mark)
 * @property {number} [stand_in_turns] turns the bot stood in for this human seat
 *
 * @typedef {'waiting' | 'playing' | 'hand_over' | 'finished' | 'closed'} TableStatus
 * @typedef {'relaxed' | 'normal' | 'fast'} Pace
 *
 * @typedef {object} TableSummary `GET /api/tables/{id}`, `welcome.table`.
 * @property {string} id
 * @property {string} variant
 * @property {number} players
 * @property {Record<string, unknown>} options
 * @property {TableStatus} status
 * @property {number} hand
 * @property {number[]} scores
 * @property {number} created
 * @property {SeatInfo[]} seats
 * @property {Pace} [pace]
 * @property {boolean} [paused] every human player has left: nothing moves until one returns
 * @property {number} [timeout_secs]
 * @property {number | null} [turn_secs]
 *
 * @typedef {object} Observation One seat's view (docs/bot-protocol.md).
 * @property {number | null} seat
 * @property {number} players
 * @property {'draw' | 'play' | 'answer' | 'hand_over' | 'deal' | 'game_over' | string} phase
 * @property {number} to_act
 * @property {number} current
 * @property {number} [dealer]
 * @property {string[]} [hand] this seat's cards (absent for a spectator)
 * @property {number[]} hand_sizes
 * @property {number[]} [foot_sizes]
 * @property {string[][]} [known]
 * @property {string[][]} melds by side, each meld a string of cards
 * @property {number[]} side_of
 * @property {string[]} pile bottom first
 * @property {number} [pile_hidden]
 * @property {boolean} pile_frozen
 * @property {number} stock
 * @property {number[]} scores
 * @property {number[]} [opening_needed]
 * @property {number[]} [red_threes]
 * @property {number[][]} [red_three_suits]
 * @property {boolean} [drew_from_stock]
 * @property {boolean} [took_pile]
 * @property {boolean} [asked]
 * @property {boolean | null} [answer]
 * @property {boolean} [must_go_out]
 *
 * @typedef {object} MeldNote A meld as the annotations describe it.
 * @property {string[]} cards
 * @property {string} label a rank letter, `wild`, or a run such as `4–T♥`
 * @property {'natural' | 'mixed' | null} canasta
 * @property {string | null} [name] `natural`, `mixed`, `wild`, `samba`, or a rank's plural
 * @property {number} [bonus]
 * @property {boolean} [closed]
 *
 * @typedef {object} TeamNote
 * @property {number[]} seats
 * @property {number} score
 * @property {number} [opening_needed]
 *
 * @typedef {object} Annotations
 * @property {MeldNote[][]} melds by side
 * @property {boolean} pile_frozen_for_me
 * @property {string | null} pile_top
 * @property {boolean} stop
 * @property {TeamNote[]} teams
 * @property {TeamNote[]} [sides] an older name of `teams`
 * @property {string | null} [pile_words] what stops this seat taking the pile, in words
 *
 * @typedef {object} LastAction The action that made a state.
 * @property {number} seat
 * @property {string} action record notation
 * @property {number} [took] cards taken with the pile
 * @property {boolean} [stand_in] the bot played it for a human seat
 *
 * @typedef {object} StateMsg
 * @property {'state'} type
 * @property {number} state_id
 * @property {TableStatus} status
 * @property {number} hand
 * @property {Observation | null} view
 * @property {Annotations} [annotations]
 * @property {string[]} legal
 * @property {LastAction | null} last
 * @property {SeatInfo[]} [seats]
 * @property {boolean[]} [ready]
 * @property {number | null} [deadline_ms] ms from this message until a stand-in plays
 * @property {boolean} [can_undo]
 *
 * @typedef {object} LogItem An item of the welcome's history.
 * @property {number} [hand]
 * @property {number} [seat]
 * @property {string} [action]
 * @property {number} [took]
 * @property {boolean} [stand_in]
 * @property {HandResult} [hand_end]
 * @property {{totals: number[], winner: number | null, stand_ins?: number[]}} [game_end]
 * @property {unknown} [deal]
 *
 * @typedef {object} WelcomeMsg
 * @property {'welcome'} type
 * @property {number | null} seat
 * @property {TableSummary} table
 * @property {LogItem[]} log
 *
 * @typedef {Record<string, number>} TeamScore itemised: melded, canastas, red_threes, going_out, in_hand, other, total, ...
 *
 * @typedef {object} HandResult
 * @property {'out' | 'stock' | 'blocked' | string} reason
 * @property {number} [seat] who went out
 * @property {TeamScore[]} teams
 * @property {number[]} totals
 *
 * @typedef {object} HandEndMsg
 * @property {'hand_end'} type
 * @property {number} hand
 * @property {HandResult} result
 * @property {string[][]} [hands]
 * @property {number[]} [stand_ins]
 *
 * @typedef {object} GameEndMsg
 * @property {'game_end'} type
 * @property {number[]} totals
 * @property {number | null | undefined} winner
 * @property {number[]} [stand_ins]
 *
 * @typedef {object} HintMsg
 * @property {'hint'} type
 * @property {number} state_id
 * @property {string} action
 * @property {string} [advice]
 * @property {string} [figures]
 * @property {string} [why]
 *
 * @typedef {object} ErrorMsg
 * @property {'error'} type
 * @property {string} code
 * @property {string} [message]
 * @property {number} [state_id]
 *
 * @typedef {{type: 'undone', removed: number}} UndoneMsg
 * @typedef {{type: 'rematch', id: string}} RematchMsg
 * @typedef {{type: 'shutdown', message?: string}} ShutdownMsg
 * @typedef {{type: 'pong'}} PongMsg
 * @typedef {{type: 'storage', ok: boolean, message?: string, retry_ms?: number}} StorageMsg
 * @typedef {{type: 'presence', seats: SeatInfo[], deadline_ms: number | null}} PresenceMsg a seat's player came or went
 * @typedef {{type: 'closed', message?: string}} ClosedMsg the table expired (nobody came, or everybody left)
 * @typedef {{type: 'moved', url?: string, message?: string}} MovedMsg another server plays the table now: reconnect (at `url`, if told)
 *
 * @typedef {WelcomeMsg | StateMsg | HandEndMsg | GameEndMsg | HintMsg | ErrorMsg | UndoneMsg | RematchMsg | ShutdownMsg | PongMsg | StorageMsg | PresenceMsg | ClosedMsg | MovedMsg} ServerMsg
 *
 * @typedef {object} RematchReply `POST /api/tables/{id}/rematch`
 * @property {string} id
 * @property {string} invite
 * @property {number} seat
 * @property {string} token
 */

export {};
