package io.jstark.cli;

import io.jstark.prover.ProgressListener;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Progress on stderr: on a terminal one line rewritten in place; otherwise a line per finished pass, so
 * logs stay readable.
 */
final class ConsoleProgress implements ProgressListener {
    private final PrintStream err;
    private final boolean interactive = System.console() != null;
    private final AtomicInteger done = new AtomicInteger();
    private volatile int total;
    private volatile long passStart;

    ConsoleProgress(PrintStream err) {
        this.err = err;
    }

    @Override
    public void passStarted(String phase, int tables) {
        total = tables;
        done.set(0);
        passStart = System.nanoTime();
    }

    @Override
    public synchronized void tableFinished(String phase, String table, long rows) {
        int d = done.incrementAndGet();
        if (interactive) {
            err.printf("\r  %-20s %3d/%d tables (last: %s)          ", phase, d, total, table);
            err.flush();
        }
    }

    @Override
    public synchronized void passFinished(String phase) {
        String line = String.format("  %-20s %3d/%d tables in %.2f s", phase, done.get(), total, (System.nanoTime() - passStart) / 1e9);
        err.println(interactive ? "\r" + line + "                    " : line);
    }
}
