/**
 * Questions asked on the terminal. The hidden one (a password) echoes nothing: readline writes through a
 * stream that is muted once the question is shown, instead of patching readline's internals, whose names
 * change between Node versions.
 */
import { Writable } from 'node:stream';
import { createInterface } from 'node:readline/promises';
import { CliError } from './cli-client';
import { EXIT } from './exit-codes';

/** A stream to the terminal that can stop passing what readline echoes. */
class MutableOutput extends Writable {
  muted = false;
  constructor(private readonly target: NodeJS.WritableStream) {
    super();
  }
  override _write(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    done: (error?: Error | null) => void,
  ): void {
    if (!this.muted) this.target.write(chunk);
    done();
  }
}

/** Asks `question` on `input` (a terminal) and answers the line typed; with `hidden`, the typing is not shown. */
export async function askOnTerminal(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  question: string,
  hidden = false,
): Promise<string> {
  const sink = new MutableOutput(output);
  const rl = createInterface({ input, output: sink, terminal: true });
  try {
    const answer = rl.question(question);
    // The question is written synchronously by question(); whatever comes after it is the typing.
    sink.muted = hidden;
    return await answer;
  } catch (error) {
    // Ctrl+C at the prompt: the person chose to stop, which is not a fault.
    if (error instanceof Error && error.name === 'AbortError')
      throw new CliError('Cancelled at the prompt.', EXIT.cancelled, 'CANCELLED');
    throw error;
  } finally {
    rl.close();
    if (hidden) output.write('\n');
  }
}
