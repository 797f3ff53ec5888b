"""Progress lines and parallel runs for the L3M studies.

`Progress` writes a line to stderr (the job's log) when a unit of work ends and, while one runs, once
`interval` seconds (30) have passed without a line: what is done, what remains, the seconds so far.
A study that runs for minutes would otherwise say nothing between its start and its end.

`run_all` runs a study's independent units (draws, random starts, trainings) in forked worker
processes: the learners' numba kernels hold the GIL, so neither threads nor a timer thread could
run beside them. The parent only waits, so it writes the 30-second lines even with one job.
Every unit is seeded by its own parameters and runs its BLAS on one thread, so the results do not
depend on the number of jobs or of cores.
"""

import multiprocessing
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

INTERVAL = 30.0


class Progress:
    """step(note): one unit done (always logged); tick(note): work inside a unit, logged once `interval`
    seconds have passed since the last line. `clock` and `stream` are injectable (tests)."""

    def __init__(self, label, total, unit, interval=INTERVAL, stream=None, clock=time.monotonic):
        self.label, self.total, self.unit, self.interval = label, int(total), unit, float(interval)
        self.stream = stream
        self.clock = clock
        self.done = 0
        self.start = self.last = clock()

    def _line(self, note):
        now = self.clock()
        secs, left = now - self.start, max(self.total - self.done, 0)
        text = f"{self.label}: {self.done}/{self.total} {self.unit} done, {left} to go, {secs:.0f} s"
        if 0 < self.done < self.total:
            text += f" (about {secs / self.done * left:.0f} s left)"
        print(text + (f"; {note}" if note else ""), file=sys.stderr if self.stream is None else self.stream, flush=True)
        self.last = now

    def step(self, note=""):
        self.done += 1
        self._line(note)

    def tick(self, note="", done=None):
        """Work inside a unit (`done`: units done so far, when the units are finer, e.g. outer steps);
        True when it wrote a line."""
        if done is not None:
            self.done = int(done)
        if self.clock() - self.last >= self.interval:
            self._line(note)
            return True
        return False

    def due(self):
        """Seconds until a tick would write a line (0 when overdue)."""
        return max(0.0, self.interval - (self.clock() - self.last))


_TASK = []


def _call(i):
    """Unit i in a worker process, its BLAS on one thread: the units are the parallelism, and BLAS
    threads beside them oversubscribe the cores (L-BFGS's vector updates on 2**22 weights ran about
    10x slower with two workers of two BLAS threads each on 2 cores)."""
    from threadpoolctl import threadpool_limits

    task, items = _TASK[-1]
    with threadpool_limits(limits=1):
        return task(items[i])


def can_fork():
    return "fork" in multiprocessing.get_all_start_methods()


def run_all(task, items, jobs=1, on_done=None, progress=None):
    """[task(x) for x in items], in the order of `items`. on_done(i, result) in the parent as each unit
    ends (in completion order). With jobs > 1, or a `progress` to keep ticking, the units run in up to
    `jobs` forked processes (task and items need not pickle, their results must) while the parent calls
    progress.tick every `progress.interval` seconds; without fork, in this process, one after another."""
    items = list(items)
    jobs = max(1, min(int(jobs), len(items)))
    if not items or not can_fork() or (jobs == 1 and progress is None):
        out = []
        for i, x in enumerate(items):
            out.append(task(x))
            if on_done is not None:
                on_done(i, out[-1])
        return out
    results = [None] * len(items)
    _TASK.append((task, items))
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            pending = {pool.submit(_call, i): i for i in range(len(items))}
            while pending:
                timeout = None if progress is None else max(progress.due(), 0.05)
                finished, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
                for future in sorted(finished, key=pending.get):
                    i = pending.pop(future)
                    if future.exception() is not None:
                        for other in pending:
                            other.cancel()  # the units not started yet; running ones end first
                        raise future.exception()
                    results[i] = future.result()
                    if on_done is not None:
                        on_done(i, results[i])
                if progress is not None and pending:
                    progress.tick(f"{min(jobs, len(pending))} running")
    finally:
        _TASK.pop()
    return results
