"""progress=True: on a terminal, a tqdm bar when tqdm is installed, else the command-line tool's
line redrawn in place; elsewhere (a log file, a pipe, a notebook's captured stderr) plain lines,
one every 2 s, as the command-line tool writes them: no carriage returns in logs.

The compiled solver calls the callback once per pivot round (with the GIL held) as
``callback(rounds_done, rounds_total, updates_per_second)``; a callable given by the user is
passed through unchanged.
"""

import contextlib
import sys
import time


def _rate_text(per_second):
    """1.23e9 -> '1.23 G', as the CLI writes rates ('1.23 Gupdates/s')."""
    units = ("", "k", "M", "G", "T", "P")
    u = 0
    while per_second >= 1000 and u < len(units) - 1:
        per_second /= 1000
        u += 1
    return f"{per_second:.2f} {units[u]}"


class _TqdmBar:
    """A tqdm bar over the pivot rounds, created at the first round (when the total is known)."""

    def __init__(self, tqdm):
        self._tqdm = tqdm
        self._bar = None

    def __call__(self, done, total, per_second):
        if self._bar is None:
            self._bar = self._tqdm(total=total, desc="apsp", unit="round", file=sys.stderr)
        self._bar.set_postfix_str(f"{_rate_text(per_second)}updates/s", refresh=False)
        self._bar.update(done - self._bar.n)

    def close(self):
        if self._bar is not None:
            self._bar.close()


class _PlainLine:
    """The CLI's progress line on stderr: redrawn in place on a terminal (at most every 0.1 s),
    one line every 2 s otherwise (logs)."""

    def __init__(self, stream):
        self._stream = stream
        self._terminal = _is_terminal(stream)
        self._start = time.monotonic()
        self._last_draw = None
        self._open = False

    def __call__(self, done, total, per_second):
        now = time.monotonic()
        last = done >= total
        every = 0.1 if self._terminal else 2.0
        if not last and self._last_draw is not None and now - self._last_draw < every:
            return
        self._last_draw = now
        fraction = done / total if total > 0 else 1.0
        elapsed = now - self._start
        eta = elapsed * (1 - fraction) / fraction if fraction > 0 else 0.0
        text = (f"apsp: round {done}/{total} ({100 * fraction:.0f}%)  "
                f"{_rate_text(per_second)}updates/s  ETA {eta:.0f} s")
        if self._terminal:
            self._stream.write("\r\033[K" + text)
            self._open = not last
            if last:
                self._stream.write("\n")
        else:
            self._stream.write(f"{text}  elapsed {elapsed:.1f} s\n")
        self._stream.flush()

    def close(self):
        if self._open:  # cancelled or failed mid-solve: end the line
            self._stream.write("\n")
            self._stream.flush()
            self._open = False


def _is_terminal(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def _default_display():
    stream = sys.stderr
    if not _is_terminal(stream):
        return _PlainLine(stream)
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _PlainLine(stream)
    return _TqdmBar(tqdm)


@contextlib.contextmanager
def callback_for(progress):
    """Yields what the compiled solver gets for ``progress=``: None (None or False), a display
    (True) that is closed when the solve ends, or the user's callable."""
    if progress is None or progress is False:
        yield None
    elif progress is True:
        display = _default_display()
        try:
            yield display
        finally:
            display.close()
    elif callable(progress):
        yield progress
    else:
        raise TypeError("progress must be True, False, None or a callable "
                        "progress(rounds_done, rounds_total, updates_per_second)")
