package io.jstark.scheduler;

import io.jstark.instrument.Spans;
import io.jstark.prover.exec.TableExecutor;
import io.jstark.prover.exec.TableProvingException;
import io.jstark.prover.exec.TableTask;
import io.jstark.prover.exec.TaskControl;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs the tables of a pass on k driver threads under a memory budget.
 *
 * <p>Each {@link #runAll} starts its own driver threads ({@value #DRIVER_THREAD_PREFIX}0, 1, ...) and
 * its own {@link MemoryGate}, and returns only after every driver has ended, on every path: no thread
 * outlives a pass and nothing stays held. The drivers take positions from one shared cursor over the
 * tables in heaviest-first order (estimated bytes, descending; ties by index), so the largest tables
 * start first and small ones fill in around them. For each table a driver waits at the gate (drivers are
 * the only threads that block there; the numeric work inside a table runs on the shared worker pool and
 * never waits on the gate), runs the task inside a span {@code phase + "_table"} whose parent is the span
 * open on the calling thread, stores the result in the cell of the table's index, and releases.
 *
 * <p><b>Failures.</b> The first failure cancels the pass: drivers start no further table, drivers waiting
 * at the gate are turned away, and running tables stop at their next {@link TaskControl#checkpoint()}.
 * Once every driver has ended, the failure of the lowest table index among those that failed is thrown as
 * one {@link TableProvingException} (the others are attached as suppressed); tables that stopped at a
 * checkpoint because of the cancellation are not failures. The executor never interrupts its drivers
 * (an interrupt could close channels a table's storage uses); a driver interrupted by someone else
 * counts as a failure of the table it was working on. An interrupt of the calling thread cancels the
 * pass the same way and ends in a {@link PassInterruptedException}, with the interrupt flag kept.
 *
 * <p>After each pass, {@link #lastStats()} and the stats listener get what was measured: peak bytes held,
 * gate waits, and per table its driver and start and end times.
 */
public final class ConcurrentExecutor implements TableExecutor {
    /** The name prefix of the driver threads, followed by a number (so that a thread dump shows them). */
    public static final String DRIVER_THREAD_PREFIX = "jstark-driver-";

    private final SchedulerOptions options;
    private final Consumer<? super SchedulerStats> statsListener;
    private volatile SchedulerStats lastStats;

    /**
     * An executor that keeps no pass statistics beyond {@link #lastStats()}.
     *
     * @param options k and the memory gate's budget
     */
    public ConcurrentExecutor(SchedulerOptions options) {
        this(options, stats -> {});
    }

    /**
     * An executor that hands every pass's statistics to {@code statsListener}.
     *
     * @param options k and the memory gate's budget
     * @param statsListener receives the stats of every pass as it ends (on the calling thread; must not throw) */
    public ConcurrentExecutor(SchedulerOptions options, Consumer<? super SchedulerStats> statsListener) {
        this.options = options;
        this.statsListener = statsListener;
    }

    /** {@return k and the memory gate's budget} */
    public SchedulerOptions options() {
        return options;
    }

    /** {@return the stats of the pass that ended last (failed ones included), or null before the first} */
    public SchedulerStats lastStats() {
        return lastStats;
    }

    @Override
    public <R> List<R> runAll(String phase, List<? extends TableTask<R>> tasks) throws TableProvingException {
        TablePass<R> pass = new TablePass<>(phase, tasks, options, Spans.current());
        List<R> results;
        try {
            results = pass.run();
        } catch (RuntimeException | Error e) {
            try {
                publish(pass.stats());
            } catch (RuntimeException listenerFailure) {
                e.addSuppressed(listenerFailure);
            }
            throw e;
        }
        publish(pass.stats());
        return results;
    }

    private void publish(SchedulerStats stats) {
        lastStats = stats;
        statsListener.accept(stats);
    }

    @Override
    public String toString() {
        return "ConcurrentExecutor[" + options + "]";
    }
}
