package io.jstark.cli;

import io.jstark.prover.ProgressListener;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The progress calls of one proof, recorded as they pass to the listener they wrap, and replayed in a loop
 * against fresh listeners: what the progress reporting costs one proof, free of the run-to-run noise that
 * hides a fraction of a percent in the proofs' wall times on a loaded machine.
 */
final class ProgressReplay implements ProgressListener {
    private static final int ROUNDS = 5;

    /** One call: which method and its arguments. */
    private record Call(int kind, String phase, String table, String step, long count) {}

    private static final int PASS_STARTED = 0;
    private static final int TABLE_FINISHED = 1;
    private static final int TABLE_STEP = 2;
    private static final int PASS_FINISHED = 3;

    private final ProgressListener delegate;
    private final List<Call> calls = new ArrayList<>();

    ProgressReplay(ProgressListener delegate) {
        this.delegate = delegate;
    }

    @Override
    public void passStarted(String phase, int tables) {
        record(new Call(PASS_STARTED, phase, null, null, tables));
        delegate.passStarted(phase, tables);
    }

    @Override
    public void tableFinished(String phase, String table, long rows) {
        record(new Call(TABLE_FINISHED, phase, table, null, rows));
        delegate.tableFinished(phase, table, rows);
    }

    @Override
    public void tableStep(String phase, String table, String step) {
        record(new Call(TABLE_STEP, phase, table, step, 0));
        delegate.tableStep(phase, table, step);
    }

    @Override
    public void passFinished(String phase) {
        record(new Call(PASS_FINISHED, phase, null, null, 0));
        delegate.passFinished(phase);
    }

    private synchronized void record(Call call) {
        calls.add(call);
    }

    /** {@return the calls recorded} */
    synchronized int calls() {
        return calls.size();
    }

    /**
     * {@return the least time, in nanoseconds, that replaying the recorded calls took a fresh listener from
     * {@code listeners}, over a few rounds of {@code repeats} replays each (the first round warms up)}
     */
    synchronized double nanosPerProof(Supplier<ProgressListener> listeners, int repeats) {
        double best = Double.MAX_VALUE;
        for (int round = 0; round <= ROUNDS; round++) {
            long start = System.nanoTime();
            for (int r = 0; r < repeats; r++) {
                ProgressListener listener = listeners.get();
                for (Call c : calls) {
                    switch (c.kind()) {
                        case PASS_STARTED -> listener.passStarted(c.phase(), (int) c.count());
                        case TABLE_FINISHED -> listener.tableFinished(c.phase(), c.table(), c.count());
                        case TABLE_STEP -> listener.tableStep(c.phase(), c.table(), c.step());
                        default -> listener.passFinished(c.phase());
                    }
                }
            }
            long nanos = System.nanoTime() - start;
            if (round > 0) {
                best = Math.min(best, (double) nanos / repeats);
            }
        }
        return best;
    }
}
