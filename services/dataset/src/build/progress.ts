/** Where the build reports progress of its long steps and its summary lines. */
export interface BuildReporter {
  /** Starts a step; the returned function takes the fraction done (0..1). */
  step(title: string): (fraction: number) => void;
  /** One line of the summary (rule counts, sizes, the result). */
  say(line: string): void;
}

interface Stream {
  isTTY?: boolean;
  write(text: string): boolean;
}

/**
 * Percent progress on stderr: rewritten in place on a terminal, otherwise plain lines; at most
 * about four updates a second per step, plus the final 100 %. Summary lines go to stdout.
 */
export function consoleReporter(
  progressStream: Stream = process.stderr,
  summaryStream: Stream = process.stdout,
  now: () => number = () => Date.now(),
): BuildReporter {
  const tty = progressStream.isTTY === true;
  return {
    step(title) {
      let lastAt = -Infinity;
      let lastPercent = -1;
      let finished = false;
      return (fraction) => {
        if (finished) return;
        const percent = Math.max(0, Math.min(100, Math.floor(fraction * 100)));
        const at = now();
        if (percent < 100 && (at - lastAt < 250 || percent === lastPercent)) return;
        lastAt = at;
        lastPercent = percent;
        const line = `dataset: ${title} ${String(percent).padStart(3)}%`;
        if (percent >= 100) finished = true;
        progressStream.write(tty ? `\r${line}${finished ? '\n' : ''}` : `${line}\n`);
      };
    },
    say(line) {
      summaryStream.write(`dataset: ${line}\n`);
    },
  };
}

/** Reporter that keeps quiet (tests). */
export const silentReporter: BuildReporter = { step: () => () => undefined, say: () => undefined };
