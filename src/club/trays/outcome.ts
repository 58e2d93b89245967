// What the laws give for a fouled tray. Duplicate whist (Foster 1914), by the number of tables engaged: Law III.2 (a
// new deal), IV.8-10 (a wrong trump card or trump slip) and V.1 (irregularities in the hand). Bridge (WBF Laws 2017):
// Law 87, a fouled board, whatever the table count: its scores are divided into groups by the form played.
import type { ClubAlert } from '../types.js';

/** The remedy, the law it rests on, and a sentence quoting it. */
export type TrayOutcome = NonNullable<ClubAlert['outcome']>;

/**
 * What went wrong with the tray, to choose the law:
 * - `hands` (default): the pockets hold the wrong cards (Dup. III.2 on the original play, V.1 on the overplay);
 * - `trump-card`: on the overplay the dealer turned a card other than the slip's and play began (Dup. IV.9);
 * - `trump-card-corrected`: the same error corrected before the play began (Dup. IV.8);
 * - `trump-slip`: the slip records a card other than the one turned at the original table (Dup. IV.10).
 */
export type TrayFault = 'hands' | 'trump-card' | 'trump-card-corrected' | 'trump-slip';

function checkTables(tables: number): void {
  if (!Number.isInteger(tables) || tables < 1) {
    throw new Error(`tables: ${JSON.stringify(tables)} must be the number of tables engaged in play, a whole number 1 or more`);
  }
}

/**
 * What the laws give for a fouled tray at this table count. `when` is the play on which it is found: on the original
 * play the deal is void (Dup. III.2: "there must be a new deal"); on the overplay, with fewer than three tables there
 * is a new deal, with more than two the hands are rectified and passed on while this table takes the average (V.1).
 */
export function fouledTrayOutcome(tables: number, when: 'original' | 'overplay', fault: TrayFault = 'hands', game: 'whist' | 'bridge' = 'whist'): TrayOutcome {
  checkTables(tables);
  if (game === 'bridge') {
    // Law 87A: a card displaced in the board fouls it; 87B: the Director divides the scores into groups by the form in
    // which the board was played, and rates each group separately. The board is put right before it moves on.
    return {
      remedy: 'score-in-groups', law: 'L87B',
      message: 'a card was displaced in the board, so the board is fouled (Law 87A): put the cards back in their pockets before the board moves on; the scores are divided into groups by the form in which the board was played, each group rated separately (Law 87B)',
    };
  }
  const few = tables < 3;
  switch (fault) {
    case 'trump-card-corrected':
      return {
        remedy: 'rectify', law: 'Dup. IV.8',
        message: 'the trump card turned in error was corrected before the play of the deal commenced: the card turned in error is liable to be called; play on',
      };
    case 'trump-card':
      return few
        ? { remedy: 'new-deal', law: 'Dup. IV.9', message: `the wrong trump card was turned and the overplay has begun; with ${tables} table${tables === 1 ? '' : 's'} (less than three) "there must be a new deal"` }
        : { remedy: 'rectify-and-average', law: 'Dup. IV.9', message: `the wrong trump card was turned and the overplay has begun; with ${tables} tables (more than two) "the players at that table shall take the average score for the deal"` };
    case 'trump-slip':
      if (when === 'original') {
        return { remedy: 'new-deal', law: 'Dup. IV.10', message: 'the trump slip records a different trump from the one turned in dealing, found at the next table: "there must be a new deal"' };
      }
      return few
        ? { remedy: 'new-deal', law: 'Dup. IV.10', message: `the deal was played with the wrong trump; with ${tables} table${tables === 1 ? '' : 's'} (less than three) "there must be a new deal"` }
        : { remedy: 'rectify-and-average', law: 'Dup. IV.10', message: `the deal was played with the wrong trump at ${tables} tables: "the recorded trump must be taken as correct and the players at the original table take the average score for the deal"` };
    case 'hands':
      if (when === 'original') {
        return { remedy: 'new-deal', law: 'Dup. III.2', message: 'the tray was found wrong after the first trick of the original play was turned and quitted: "there must be a new deal"' };
      }
      return few
        ? { remedy: 'new-deal', law: 'Dup. V.1', message: `a hand is wrong on the overplay and ${tables} table${tables === 1 ? ' is' : 's are'} engaged (less than three): "there must be a new deal"` }
        : { remedy: 'rectify-and-average', law: 'Dup. V.1', message: `a hand is wrong on the overplay with ${tables} tables in play (more than two): "the hands must be rectified and then passed to the next table; the table at which the error was discovered must not overplay the deal but shall take the average score"` };
  }
}
