/**
 * How `pi` talks: for people by default (aligned tables, colour only on a terminal and never with
 * NO_COLOR), JSON with --json. Data goes to stdout, progress and errors to stderr.
 */
export interface Streams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

const CODES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
export type Colour = keyof typeof CODES;

export class Output {
  readonly colour: boolean;

  constructor(
    readonly streams: Streams,
    readonly json: boolean,
  ) {
    this.colour =
      Boolean(streams.stdout.isTTY) && !('NO_COLOR' in streams.env && streams.env.NO_COLOR !== '');
  }

  paint(text: string, colour: Colour): string {
    return this.colour ? `\x1b[${CODES[colour]}m${text}\x1b[0m` : text;
  }

  line(text = ''): void {
    this.streams.stdout.write(text + '\n');
  }

  raw(bytes: Uint8Array | string): void {
    this.streams.stdout.write(bytes);
  }

  /** A note for people on stderr (kept out of pipes and out of --json output). */
  note(text: string): void {
    this.streams.stderr.write(text + '\n');
  }

  data(value: unknown): void {
    this.line(JSON.stringify(value, null, 2));
  }

  /**
   * Columns padded to their widest cell; the header bold. On a terminal the last column is cut (with …) so
   * that a row fits its width rather than wrapping; in a pipe nothing is cut.
   */
  table(header: string[], rows: string[][], colours: (Colour | undefined)[] = []): void {
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const lastRoom = this.lastColumnRoom(widths);
    const fit = (cell: string) =>
      lastRoom !== undefined && cell.length > lastRoom ? `${cell.slice(0, lastRoom - 1)}…` : cell;
    const format = (cells: string[], paint: (cell: string, i: number) => string) =>
      cells
        .map((cell, i) => (i === cells.length - 1 ? fit(cell) : cell.padEnd(widths[i]!)))
        .map(paint)
        .join('  ')
        .trimEnd();
    if (header.some((h) => h !== '')) this.line(format(header, (cell) => this.paint(cell, 'bold')));
    for (const row of rows) {
      this.line(
        format(row, (cell, i) => {
          const colour = colours[i] ?? colourOfCell(row[i] ?? '');
          return colour ? this.paint(cell, colour) : cell;
        }),
      );
    }
  }

  /** The characters left for a table's last column on a terminal; undefined in a pipe or when too narrow. */
  private lastColumnRoom(widths: number[]): number | undefined {
    const columns = this.streams.stdout.isTTY ? this.streams.stdout.columns : undefined;
    if (!columns) return undefined;
    const before = widths.slice(0, -1).reduce((sum, w) => sum + w + 2, 0);
    const room = columns - before;
    return room >= 12 ? room : undefined;
  }

  /** A progress bar on stderr, drawn only when stderr is a terminal. */
  progress(total: number, label: string): { tick(text?: string): void; done(): void } {
    if (!this.streams.stderr.isTTY || this.json || total === 0) return { tick() {}, done() {} };
    let count = 0;
    const width = 30;
    const draw = (text: string) => {
      const filled = Math.round((count / total) * width);
      this.streams.stderr.write(
        `\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${count}/${total} ${text}`.slice(
          0,
          120,
        ) + '\x1b[K',
      );
    };
    draw('');
    return {
      tick: (text = '') => {
        count++;
        draw(text);
      },
      done: () => this.streams.stderr.write('\r\x1b[K'),
    };
  }
}

function colourOfCell(cell: string): Colour | undefined {
  if (cell === 'passed' || cell === 'created' || cell === 'updated') return 'green';
  if (cell === 'failed' || cell === 'error') return 'red';
  return undefined;
}
