package io.jstark.cli;

import io.jstark.prover.ProgressListener;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress on stderr, one bar per pass: at a terminal the bar is redrawn in place as tables finish and
 * names the step the last table reached; elsewhere (a log file, a pipe) each finished table is a plain
 * line of its own, and a step is a line when nothing was printed for {@link #QUIET_NANOS} (so that a long
 * table shows it is moving, and a quick proof stays short). Each line is written and flushed whole.
 */
final class ConsoleProgress implements ProgressListener {
    static final String TERMINAL_PROPERTY = Main.STDERR_TERMINAL_PROPERTY;
    private static final int BAR_WIDTH = 24;
    /** Off a terminal, a step is printed only after this long without a line. */
    static final long QUIET_NANOS = 2_000_000_000L;

    private final PrintStream err;
    private final boolean terminal;
    private final LongSupplier clock;
    private int done;
    private int total;
    private long passStart;
    private long lastLine;

    ConsoleProgress(PrintStream err) {
        this(err, stderrIsTerminal(), System::nanoTime);
    }

    ConsoleProgress(PrintStream err, boolean terminal) {
        this(err, terminal, System::nanoTime);
    }

    ConsoleProgress(PrintStream err, boolean terminal, LongSupplier clock) {
        this.err = err;
        this.terminal = terminal;
        this.clock = clock;
    }

    static boolean stderrIsTerminal() {
        Boolean client = Invocation.stderrTerminal();
        if (client != null) {
            return client; // a daemon's request: the client's stderr, not the daemon's log
        }
        String told = System.getProperty(TERMINAL_PROPERTY);
        if (told != null) {
            return Boolean.parseBoolean(told);
        }
        java.io.Console console = System.console();
        return console != null && console.isTerminal();
    }

    @Override
    public synchronized void passStarted(String phase, int tables) {
        total = tables;
        done = 0;
        passStart = clock.getAsLong();
        if (terminal) {
            draw(phase, "");
        } else {
            line(String.format(Locale.ROOT, "  %-20s started: %d tables", phase, tables));
        }
    }

    @Override
    public synchronized void tableFinished(String phase, String table, long rows) {
        done++;
        if (terminal) {
            draw(phase, " (last: " + SafeText.of(table) + ")");
        } else {
            line(String.format(
                    Locale.ROOT,
                    "  %-20s %s %3d/%d tables, %s (2^%d rows) done, %.2f s",
                    phase,
                    bar(),
                    done,
                    total,
                    SafeText.of(table),
                    63 - Long.numberOfLeadingZeros(Math.max(1, rows)),
                    seconds()));
        }
    }

    @Override
    public synchronized void tableStep(String phase, String table, String step) {
        if (terminal) {
            draw(phase, " (" + SafeText.of(table) + ": " + step + ")");
        } else if (clock.getAsLong() - lastLine >= QUIET_NANOS) {
            line(String.format(
                    Locale.ROOT,
                    "  %-20s %s %3d/%d tables, %s: %s done, %.2f s",
                    phase,
                    bar(),
                    done,
                    total,
                    SafeText.of(table),
                    step,
                    seconds()));
        }
    }

    @Override
    public synchronized void passFinished(String phase) {
        String summary =
                String.format(Locale.ROOT, "  %-20s %s %3d/%d tables in %.2f s", phase, bar(), done, total, seconds());
        if (terminal) {
            err.print("\r\033[K" + summary + "\n");
            err.flush();
        } else {
            line(summary);
        }
    }

    private void draw(String phase, String last) {
        err.print(String.format(Locale.ROOT, "\r\033[K  %-20s %s %3d/%d tables%s", phase, bar(), done, total, last));
        err.flush();
    }

    private void line(String text) {
        err.print(text + "\n");
        err.flush();
        lastLine = clock.getAsLong();
    }

    private String bar() {
        int filled = total == 0 ? BAR_WIDTH : (int) ((long) BAR_WIDTH * done / total);
        return "[" + "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled) + "]";
    }

    private double seconds() {
        return (clock.getAsLong() - passStart) / 1e9;
    }
}
