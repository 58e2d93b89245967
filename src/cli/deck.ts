// `tenace deck --virtual --out FILE [--id NAME]`: write a deterministic deck file for emulation.
// `tenace deck --check FILE [FILE...]`: load deck files together and report (duplicate tags, missing cards).
import { type CliIo, STDIO, parseCommand } from './args.js';
import { DeckError, DeckSet, loadDeckFile, missingCards, virtualDeck, writeDeckFile } from '../hardware/deck.js';


const USAGE = `usage: tenace deck --virtual --out FILE [--id NAME]   write a deterministic virtual deck (for emulation)
       tenace deck --check FILE [FILE...]               load deck files together and report on them
`;

export function deckCommand(argv: string[], io: CliIo = STDIO): number {
  const args = parseCommand('deck', USAGE, {
      args: argv,
      allowPositionals: true,
      options: {
        virtual: { type: 'boolean' },
        out: { type: 'string', short: 'o' },
        id: { type: 'string' },
        check: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }, io);
  if (typeof args === 'number') return args;
  const v = args.values;
  if (v.check) {
    if (args.positionals.length === 0) {
      io.err(`tenace deck: --check needs deck files\n${USAGE}`);
      return 64;
    }
    try {
      const files = args.positionals.map(loadDeckFile);
      const set = new DeckSet(files);
      for (const d of set.decks) {
        const miss = missingCards(d);
        io.out(`${d.deck}: ${Object.keys(d.cards).length} tags${miss.length ? `, missing ${miss.join(' ')}` : ', complete'}\n`);
      }
      return 0;
    } catch (e) {
      io.err(`tenace deck: ${(e as Error).message}\n`);
      return 65;
    }
  }
  if (!v.virtual) {
    io.err(`tenace deck: say --virtual (or --check)\n${USAGE}`);
    return 64;
  }
  if (!v.out) {
    io.err(`tenace deck: --out FILE is required\n${USAGE}`);
    return 64;
  }
  const id = v.id ?? 'virtual-1';
  try {
    const d = virtualDeck(id);
    writeDeckFile(v.out, d);
    io.out(`wrote deck ${id} (52 tags) to ${v.out}\n`);
    return 0;
  } catch (e) {
    if (e instanceof DeckError) {
      io.err(`tenace deck: ${e.message}\n`);
      return 64;
    }
    io.err(`tenace deck: cannot write ${v.out}: ${(e as Error).message}\n`);
    return 73;
  }
}
