package io.jstark.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jstark.instrument.Span;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.prover.exec.TableProvingException;
import io.jstark.prover.exec.TableTask;
import io.jstark.prover.exec.TaskControl;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ConcurrentExecutorTest {
    interface Body {
        String run(TaskControl control) throws Exception;
    }

    record Task(int index, String table, long estimatedBytes, Body body) implements TableTask<String> {
        @Override
        public String run(TaskControl control) throws Exception {
            return body.run(control);
        }
    }

    static Task task(int index, long bytes, Body body) {
        return new Task(index, "table" + index, bytes, body);
    }

    /** Passes checkpoints until the pass is cancelled (bounded, so a missing cancellation fails instead of hanging). */
    static String untilCancelled(TaskControl control) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            control.checkpoint();
            Thread.sleep(1);
        }
        throw new AssertionError("never cancelled");
    }

    static ConcurrentExecutor executor(int k, long budget) {
        return new ConcurrentExecutor(new SchedulerOptions(k, budget));
    }

    @AfterEach
    void noDriverOutlivesItsPass() {
        assertThat(Bounded.liveDrivers()).isZero();
    }

    @Test
    void oneDriverRunsTablesHeaviestFirstTiesByIndex() {
        List<Integer> ran = new CopyOnWriteArrayList<>();
        long[] sizes = {5, 9, 9, 1, 0, 7};
        List<Task> tasks = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            int index = i;
            tasks.add(task(i, sizes[i], c -> {
                ran.add(index);
                return "r" + index;
            }));
        }
        ConcurrentExecutor executor = executor(1, Long.MAX_VALUE);
        assertThat(executor.runAll("pass", tasks)).containsExactly("r0", "r1", "r2", "r3", "r4", "r5");
        assertThat(ran).containsExactly(1, 2, 5, 0, 3, 4);
        assertThat(executor.lastStats().tasks())
                .extracting(SchedulerStats.TaskStats::order)
                .containsExactly(3, 0, 1, 4, 5, 2);
        assertThat(executor.lastStats().tasks())
                .extracting(SchedulerStats.TaskStats::driver)
                .containsOnly("jstark-driver-0");
    }

    @Test
    void resultsFollowTheIndicesNotTheListOrder() {
        List<Task> tasks = List.of(task(10, 1, c -> "ten"), task(3, 2, c -> "three"), task(7, 3, c -> null));
        assertThat(executor(3, Long.MAX_VALUE).runAll("pass", tasks)).containsExactly("three", null, "ten");
    }

    @Test
    void anEmptyPassStartsNoThread() {
        ConcurrentExecutor executor = executor(4, 100);
        assertThat(executor.runAll("pass", List.<Task>of())).isEmpty();
        assertThat(executor.lastStats().drivers()).isZero();
    }

    @Test
    void rejectsSharedIndicesAndNegativeEstimatesBeforeStartingAnything() {
        List<String> ran = new CopyOnWriteArrayList<>();
        Body body = c -> {
            ran.add("ran");
            return "";
        };
        assertThatThrownBy(() ->
                        executor(2, 100).runAll("pass", List.of(task(0, 1, body), new Task(0, "other", 1, body))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'table0' and 'other' share the index 0");
        assertThatThrownBy(() -> executor(2, 100).runAll("pass", List.of(task(0, 1, body), task(1, -5, body))))
                .isInstanceOf(TableProvingException.class)
                .hasMessageContaining("'table1'")
                .hasMessageContaining("-5");
        assertThat(ran).isEmpty();
    }

    @Test
    void afterAFailureRunningTablesStopAtTheirCheckpointAndNoOtherStarts() {
        CountDownLatch secondStarted = new CountDownLatch(1);
        List<Integer> started = new CopyOnWriteArrayList<>();
        List<Task> tasks = new ArrayList<>();
        // heaviest first: table 0 and table 1 start on the two drivers; 2..5 wait their turn
        tasks.add(task(0, 100, c -> {
            started.add(0);
            secondStarted.await();
            throw new java.io.IOException("disk full");
        }));
        tasks.add(task(1, 90, c -> {
            started.add(1);
            secondStarted.countDown();
            return untilCancelled(c);
        }));
        for (int i = 2; i < 6; i++) {
            int index = i;
            tasks.add(task(i, 10, c -> {
                started.add(index);
                return "";
            }));
        }
        ConcurrentExecutor executor = executor(2, Long.MAX_VALUE);
        TableProvingException e =
                catchThrowableOfType(TableProvingException.class, () -> executor.runAll("aux_and_rounds_2_4", tasks));
        assertThat(e.table()).isEqualTo("table0");
        assertThat(e.index()).isZero();
        assertThat(e).hasMessage("table 'table0' (index 0) failed in aux_and_rounds_2_4: disk full");
        assertThat(e.getSuppressed()).isEmpty();
        assertThat(started).containsExactlyInAnyOrder(0, 1);
        SchedulerStats stats = executor.lastStats();
        assertThat(stats.tasks())
                .extracting(SchedulerStats.TaskStats::outcome)
                .containsExactly(
                        SchedulerStats.Outcome.FAILED,
                        SchedulerStats.Outcome.CANCELLED,
                        SchedulerStats.Outcome.NOT_STARTED,
                        SchedulerStats.Outcome.NOT_STARTED,
                        SchedulerStats.Outcome.NOT_STARTED,
                        SchedulerStats.Outcome.NOT_STARTED);
        assertThat(stats.heldBytesAtEnd()).isZero();
    }

    @Test
    void ofTwoFailuresTheLowerIndexIsReportedWhicheverCameFirst() throws Exception {
        CyclicBarrier together = new CyclicBarrier(2);
        // table 1 is heavier, so it starts first; both fail at about the same time
        List<Task> tasks = List.of(
                task(0, 10, c -> {
                    together.await();
                    throw new IllegalStateException("zero broke");
                }),
                task(1, 20, c -> {
                    together.await();
                    throw new IllegalStateException("one broke");
                }));
        TableProvingException e = catchThrowableOfType(
                TableProvingException.class, () -> executor(2, Long.MAX_VALUE).runAll("pass", tasks));
        assertThat(e.table()).isEqualTo("table0");
        assertThat(e.getCause()).hasMessage("zero broke");
        assertThat(e.getSuppressed())
                .singleElement()
                .satisfies(s -> assertThat(s).hasMessage("one broke"));
    }

    @Test
    void aCancellationWrappedByATableIsNotAFailure() {
        CountDownLatch running = new CountDownLatch(1);
        List<Task> tasks = List.of(
                task(0, 10, c -> {
                    running.countDown();
                    try {
                        return untilCancelled(c);
                    } catch (TaskControl.CancelledException cancelled) {
                        throw new RuntimeException("stopping", cancelled);
                    }
                }),
                task(1, 5, c -> {
                    running.await();
                    throw new IllegalArgumentException("bad column");
                }));
        TableProvingException e = catchThrowableOfType(
                TableProvingException.class, () -> executor(2, Long.MAX_VALUE).runAll("pass", tasks));
        assertThat(e.table()).isEqualTo("table1");
        assertThat(e.getSuppressed()).isEmpty();
    }

    @Test
    void errorsAndTypedFailuresFromTablesSurfaceAsOneTableProvingException() {
        assertThatThrownBy(() -> executor(2, 100)
                        .runAll(
                                "pass",
                                List.of(
                                        task(0, 1, c -> {
                                            throw new OutOfMemoryError("Java heap space");
                                        }),
                                        task(1, 1, c -> "fine"))))
                .isInstanceOf(TableProvingException.class)
                .hasMessage("table 'table0' (index 0) failed in pass: Java heap space")
                .hasCauseInstanceOf(OutOfMemoryError.class);
        TableProvingException inner = new TableProvingException("inner", 4, "nested", new IllegalStateException("x"));
        assertThatThrownBy(() -> executor(2, 100).runAll("pass", List.of(task(0, 1, c -> {
                    throw inner;
                }))))
                .isSameAs(inner);
    }

    @Test
    void anInterruptedDriverFailsItsTable() {
        List<Task> tasks = List.of(task(0, 1, c -> {
            Thread.currentThread().interrupt();
            return "done anyway";
        }));
        assertThatThrownBy(() -> executor(1, 100).runAll("pass", tasks))
                .isInstanceOf(TableProvingException.class)
                .hasMessageContaining("'table0'")
                .hasCauseInstanceOf(InterruptedException.class);
    }

    @Test
    void interruptingTheCallerCancelsThePassEndsTheDriversAndKeepsTheFlag() throws Exception {
        CountDownLatch running = new CountDownLatch(2);
        List<Integer> started = new CopyOnWriteArrayList<>();
        List<Task> tasks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int index = i;
            tasks.add(task(i, 10 - i, c -> {
                started.add(index);
                running.countDown();
                return untilCancelled(c);
            }));
        }
        ConcurrentExecutor executor = executor(2, Long.MAX_VALUE);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> flagKept = new AtomicReference<>();
        Thread caller = Thread.ofPlatform().start(() -> {
            try {
                executor.runAll("pass", tasks);
            } catch (Throwable e) {
                thrown.set(e);
            }
            flagKept.set(Thread.currentThread().isInterrupted());
        });
        running.await();
        caller.interrupt();
        caller.join();
        assertThat(thrown.get())
                .isInstanceOf(PassInterruptedException.class)
                .hasMessage("pass 'pass' interrupted after 0 of 5 tables completed");
        assertThat(flagKept.get()).isTrue();
        assertThat(started).containsExactlyInAnyOrder(0, 1);
        assertThat(executor.lastStats().heldBytesAtEnd()).isZero();
    }

    @Test
    void driversWaitAtTheGateAndTheStatsSayForHowLong() {
        // budget 100: the two 60-byte tables cannot run together
        java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
        List<Task> tasks = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            tasks.add(task(i, 60, c -> {
                if (first.getAndSet(false)) {
                    // hold the gate until the other driver is seen waiting in it, then 20 ms more
                    Bounded.await(
                            "the other driver to wait at the gate", ConcurrentExecutorTest::aDriverWaitsAtTheGate);
                    Thread.sleep(20);
                }
                return "";
            }));
        }
        List<SchedulerStats> published = new CopyOnWriteArrayList<>();
        ConcurrentExecutor executor = new ConcurrentExecutor(new SchedulerOptions(2, 100), published::add);
        executor.runAll("main_commit", tasks);
        SchedulerStats stats = executor.lastStats();
        assertThat(published).containsExactly(stats);
        assertThat(stats.phase()).isEqualTo("main_commit");
        assertThat(stats.drivers()).isEqualTo(2);
        assertThat(stats.peakHeldBytes()).isEqualTo(60);
        assertThat(stats.totalGateWaitNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
        SchedulerStats.TaskStats a = stats.tasks().get(0);
        SchedulerStats.TaskStats b = stats.tasks().get(1);
        assertThat(List.of(a.driver(), b.driver())).containsExactlyInAnyOrder("jstark-driver-0", "jstark-driver-1");
        // one ran after the other
        assertThat(a.endNanos() <= b.startNanos() || b.endNanos() <= a.startNanos())
                .isTrue();
        assertThat(stats.wallNanos()).isGreaterThanOrEqualTo(Math.max(a.endNanos(), b.endNanos()));
    }

    static boolean aDriverWaitsAtTheGate() {
        for (Map.Entry<Thread, StackTraceElement[]> e :
                Thread.getAllStackTraces().entrySet()) {
            if (e.getKey().getName().startsWith(ConcurrentExecutor.DRIVER_THREAD_PREFIX)
                    && e.getKey() != Thread.currentThread()
                    && e.getKey().getState() == Thread.State.WAITING) {
                for (StackTraceElement frame : e.getValue()) {
                    if (frame.getClassName().equals(MemoryGate.class.getName())
                            && frame.getMethodName().equals("acquire")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    @Test
    void tableSpansAreChildrenOfTheCallersSpanAndRunOnDriverThreads() {
        SpanRecorder recorder = new SpanRecorder(null);
        Spans.start(recorder);
        long phaseId;
        try {
            List<Task> tasks = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                tasks.add(task(i, 10 + i, c -> {
                    try (Span _ = Spans.open("inner")) {
                        return "";
                    }
                }));
            }
            try (Span phase = Spans.open("main_commit")) {
                phaseId = phase.id();
                executor(3, Long.MAX_VALUE).runAll("main_commit", tasks);
            }
        } finally {
            Spans.stop(recorder);
        }
        List<SpanRecord> tables = recorder.records().stream()
                .filter(r -> r.label().equals("main_commit_table"))
                .toList();
        assertThat(tables).hasSize(4).allSatisfy(r -> {
            assertThat(r.parentId()).isEqualTo(phaseId);
            assertThat(r.thread()).startsWith("jstark-driver-");
        });
        Map<Object, Object> indexByTable = tables.stream()
                .collect(Collectors.toMap(
                        r -> r.fields().get("table"), r -> r.fields().get("index")));
        assertThat(indexByTable)
                .containsOnly(
                        Map.entry("table0", 0L),
                        Map.entry("table1", 1L),
                        Map.entry("table2", 2L),
                        Map.entry("table3", 3L));
        // spans opened inside a table nest under its table span
        List<Long> tableIds = tables.stream().map(SpanRecord::id).toList();
        assertThat(recorder.records().stream().filter(r -> r.label().equals("inner")))
                .hasSize(4)
                .allSatisfy(r -> assertThat(tableIds).contains(r.parentId()));
    }
}
