package io.jstark.scheduler;

import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.prover.exec.TableProvingException;
import io.jstark.prover.exec.TableTask;
import io.jstark.prover.exec.TaskControl;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One {@link ConcurrentExecutor#runAll} pass: its drivers, its memory gate, the cursor over the tables heaviest first,
 * and the cells of each table's result, failure and timing. Driver d writes only the cells of the tables it took; the
 * caller reads them after joining.
 */
final class TablePass<R> {
    private final String phase;
    private final String spanLabel;
    private final Span parent;
    private final List<TableTask<R>> byIndex;
    private final long[] bytes;
    /** Positions in byIndex, heaviest first. */
    private final int[] order;

    private final int drivers;
    private final MemoryGate gate;
    private final AtomicInteger cursor = new AtomicInteger();
    private final long startNanoTime = System.nanoTime();

    private final Object[] results;
    private final Throwable[] failures;
    private final SchedulerStats.Outcome[] outcomes;
    private final String[] driverNames;
    private final long[] gateWaits;
    private final long[] starts;
    private final long[] ends;

    /** Orders start decisions against cancellation: once cancelled, no table starts. */
    private final Object startLock = new Object();

    private volatile boolean cancelled;
    private volatile String cancelReason;
    private long cancelledAt = -1;
    private volatile long wallNanos = -1;
    private final TaskControl control = this::checkpoint;

    TablePass(String phase, List<? extends TableTask<R>> tasks, SchedulerOptions options, Span parent) {
        this.phase = phase;
        this.spanLabel = SpanLabels.tableLabel(phase);
        this.parent = parent;
        List<TableTask<R>> sorted = new ArrayList<>(tasks);
        sorted.sort(Comparator.comparingInt(TableTask::index));
        this.byIndex = sorted;
        int n = sorted.size();
        this.bytes = new long[n];
        for (int i = 0; i < n; i++) {
            TableTask<R> task = sorted.get(i);
            if (i > 0 && sorted.get(i - 1).index() == task.index()) {
                throw new IllegalArgumentException(
                        "tables '" + sorted.get(i - 1).table() + "' and '" + task.table() + "' share the index "
                                + task.index() + " in pass " + phase);
            }
            long estimate = task.estimatedBytes();
            if (estimate < 0) {
                throw new TableProvingException(
                        phase,
                        task.index(),
                        task.table(),
                        new IllegalArgumentException("negative estimated bytes: " + estimate));
            }
            bytes[i] = estimate;
        }
        Integer[] heaviestFirst = new Integer[n];
        for (int i = 0; i < n; i++) {
            heaviestFirst[i] = i;
        }
        // byIndex is in index order, so ties by position are ties by index
        Arrays.sort(
                heaviestFirst,
                (a, b) -> bytes[a] != bytes[b] ? Long.compare(bytes[b], bytes[a]) : Integer.compare(a, b));
        this.order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = heaviestFirst[i];
        }
        this.drivers = Math.min(options.tableParallelism(), n);
        this.gate = new MemoryGate(options.gateBudgetBytes());
        this.results = new Object[n];
        this.failures = new Throwable[n];
        this.outcomes = new SchedulerStats.Outcome[n];
        Arrays.fill(outcomes, SchedulerStats.Outcome.NOT_STARTED);
        this.driverNames = new String[n];
        this.gateWaits = new long[n];
        this.starts = new long[n];
        this.ends = new long[n];
        Arrays.fill(starts, -1);
        Arrays.fill(ends, -1);
    }

    List<R> run() {
        Thread[] threads = new Thread[drivers];
        Throwable startFailure = null;
        for (int d = 0; d < drivers; d++) {
            String name = ConcurrentExecutor.DRIVER_THREAD_PREFIX + d;
            try {
                threads[d] = Thread.ofPlatform().name(name).daemon(true).unstarted(() -> drive(name));
                threads[d].start();
            } catch (Throwable e) {
                // cannot start a thread (out of native threads): stop the ones already running
                threads[d] = null;
                startFailure = e;
                cancel("driver thread " + name + " could not start");
                break;
            }
        }
        boolean interrupted = joinAll(threads);
        wallNanos = System.nanoTime() - startNanoTime;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        TableProvingException failure = firstFailure();
        if (failure != null) {
            if (startFailure != null) {
                failure.addSuppressed(startFailure);
            }
            throw failure;
        }
        if (startFailure instanceof RuntimeException e) {
            throw e;
        }
        if (startFailure instanceof Error e) {
            throw e;
        }
        int completed = 0;
        for (SchedulerStats.Outcome outcome : outcomes) {
            if (outcome == SchedulerStats.Outcome.COMPLETED) {
                completed++;
            }
        }
        if (completed < outcomes.length) {
            if (interrupted) {
                throw new PassInterruptedException(phase, completed, outcomes.length);
            }
            throw new IllegalStateException("pass '" + phase + "' ended with " + (outcomes.length - completed)
                    + " tables unfinished and no failure (" + cancelReason + ")");
        }
        @SuppressWarnings("unchecked")
        List<R> list = (List<R>) Collections.unmodifiableList(Arrays.asList(results));
        return list;
    }

    /** Waits for every driver; an interrupt cancels the pass but the waiting goes on. Returns whether interrupted. */
    private boolean joinAll(Thread[] threads) {
        boolean interrupted = false;
        for (Thread thread : threads) {
            if (thread == null) {
                continue;
            }
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                    cancel("the thread running the pass was interrupted");
                }
            }
        }
        return interrupted;
    }

    private void drive(String driverName) {
        while (!cancelled) {
            int position = cursor.getAndIncrement();
            if (position >= order.length) {
                return;
            }
            int i = order[position];
            try {
                if (!runOne(i, driverName)) {
                    return;
                }
            } catch (Throwable bug) {
                // runOne catches what tasks throw; anything here is the scheduler's own failure
                fail(i, bug);
                return;
            }
        }
    }

    /** Returns whether the driver should go on to another table. */
    private boolean runOne(int i, String driverName) {
        TableTask<R> task = byIndex.get(i);
        long need = bytes[i];
        driverNames[i] = driverName;
        long asked = System.nanoTime();
        boolean admitted;
        try {
            admitted = gate.acquire(need);
        } catch (InterruptedException e) {
            gateWaits[i] = System.nanoTime() - asked;
            fail(i, e);
            return false;
        }
        gateWaits[i] = System.nanoTime() - asked;
        if (!admitted) {
            return false;
        }
        try {
            if (!tryStart(i)) {
                return false;
            }
            Object result = null;
            Throwable failure = null;
            try (Span _ =
                    Spans.openChild(parent, spanLabel, SpanLabels.TABLE_FIELD, task.table(), "index", task.index())) {
                result = task.run(control);
            } catch (Throwable e) {
                failure = e;
            }
            ends[i] = System.nanoTime() - startNanoTime;
            if (Thread.interrupted() && failure == null) {
                failure = new InterruptedException(
                        "driver thread " + driverName + " was interrupted while running the table");
            }
            if (failure == null) {
                results[i] = result;
                outcomes[i] = SchedulerStats.Outcome.COMPLETED;
                return true;
            }
            if (cancelled && causedByCancellation(failure)) {
                outcomes[i] = SchedulerStats.Outcome.CANCELLED;
                return false;
            }
            fail(i, failure);
            return false;
        } finally {
            gate.release(need);
        }
    }

    private boolean tryStart(int i) {
        synchronized (startLock) {
            if (cancelled) {
                return false;
            }
            starts[i] = System.nanoTime() - startNanoTime;
            return true;
        }
    }

    private void checkpoint() {
        if (cancelled) {
            throw new TaskControl.CancelledException("pass '" + phase + "' cancelled: " + cancelReason);
        }
    }

    private void fail(int i, Throwable failure) {
        failures[i] = failure;
        outcomes[i] = SchedulerStats.Outcome.FAILED;
        cancel("table '" + byIndex.get(i).table() + "' failed");
    }

    private void cancel(String reason) {
        synchronized (startLock) {
            if (!cancelled) {
                cancelReason = reason;
                cancelledAt = System.nanoTime() - startNanoTime;
                cancelled = true;
            }
        }
        gate.close();
    }

    private static boolean causedByCancellation(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 64; t = t.getCause(), depth++) {
            if (t instanceof TaskControl.CancelledException) {
                return true;
            }
        }
        return false;
    }

    private TableProvingException firstFailure() {
        TableProvingException first = null;
        for (int i = 0; i < failures.length; i++) {
            Throwable failure = failures[i];
            if (failure == null) {
                continue;
            }
            if (first == null) {
                TableTask<R> task = byIndex.get(i);
                first = failure instanceof TableProvingException already
                        ? already
                        : new TableProvingException(phase, task.index(), task.table(), failure);
            } else if (failure != first) {
                first.addSuppressed(failure);
            }
        }
        return first;
    }

    /** Safe to call once run has returned or thrown (the drivers have ended). */
    SchedulerStats stats() {
        List<SchedulerStats.TaskStats> tasks = new ArrayList<>(byIndex.size());
        int[] positionInOrder = new int[order.length];
        for (int p = 0; p < order.length; p++) {
            positionInOrder[order[p]] = p;
        }
        long totalWait = 0;
        for (int i = 0; i < byIndex.size(); i++) {
            TableTask<R> task = byIndex.get(i);
            totalWait += gateWaits[i];
            tasks.add(new SchedulerStats.TaskStats(
                    task.index(),
                    task.table(),
                    bytes[i],
                    positionInOrder[i],
                    driverNames[i],
                    gateWaits[i],
                    starts[i],
                    ends[i],
                    outcomes[i]));
        }
        long cancelledAtNanos;
        synchronized (startLock) {
            cancelledAtNanos = cancelledAt;
        }
        return new SchedulerStats(
                phase,
                drivers,
                gate.budget(),
                gate.peakHeld(),
                gate.held(),
                totalWait,
                startNanoTime,
                wallNanos,
                cancelledAtNanos,
                tasks);
    }
}
