package io.jstark.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jstark.prover.exec.TableProvingException;
import io.jstark.prover.exec.TaskControl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/** Properties of the gate and the driver with fake tables: random sizes, budgets, k, failures. */
class SchedulerPropertiesTest {
    record Spec(long bytes, int workMicros, int checkpoints, boolean fails) {}

    @Provide
    Arbitrary<Long> budgets() {
        return Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.longs().between(1, 1000)), Tuple.of(1, Arbitraries.just(Long.MAX_VALUE)));
    }

    @Provide
    Arbitrary<List<Spec>> succeeding() {
        return specs(Arbitraries.just(false));
    }

    @Provide
    Arbitrary<List<Spec>> sometimesFailing() {
        return specs(Arbitraries.frequency(Tuple.of(1, true), Tuple.of(3, false)));
    }

    private static Arbitrary<List<Spec>> specs(Arbitrary<Boolean> fails) {
        // sizes up to 1500 against budgets up to 1000: some tables are oversized
        Arbitrary<Spec> one = Combinators.combine(
                        Arbitraries.longs().between(0, 1500),
                        Arbitraries.integers().between(0, 300),
                        Arbitraries.integers().between(0, 3),
                        fails)
                .as(Spec::new);
        return one.list().ofMinSize(0).ofMaxSize(12);
    }

    private static List<FakeTable> tables(List<Spec> specs, FakeTable.Watch watch, Random random) {
        List<FakeTable> tables = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            Spec s = specs.get(i);
            tables.add(new FakeTable(i, s.bytes(), s.workMicros(), s.checkpoints(), s.fails(), watch));
        }
        // the list order is not the index order
        Collections.shuffle(tables, random);
        return tables;
    }

    @Property(tries = 150)
    void everyTableRunsOnceWithinTheBudgetAndResultsComeInIndexOrder(
            @ForAll @IntRange(min = 1, max = 6) int k,
            @ForAll("budgets") long budget,
            @ForAll("succeeding") List<Spec> specs,
            @ForAll Random random)
            throws Exception {
        FakeTable.Watch watch = new FakeTable.Watch(budget, specs.size());
        List<FakeTable> tables = tables(specs, watch, random);
        ConcurrentExecutor executor = new ConcurrentExecutor(new SchedulerOptions(k, budget));

        List<String> results = Bounded.within(() -> executor.runAll("pass", tables));

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            expected.add(FakeTable.resultOf(i));
            assertThat(watch.runs(i)).as("runs of t%d", i).isEqualTo(1);
        }
        assertThat(results).containsExactlyElementsOf(expected);
        assertThat(watch.violations()).isEmpty();
        assertThat(Bounded.liveDrivers()).isZero();

        SchedulerStats stats = executor.lastStats();
        assertThat(stats.heldBytesAtEnd()).isZero();
        assertThat(stats.drivers()).isEqualTo(Math.min(k, specs.size()));
        assertThat(stats.cancelledAtNanos()).isEqualTo(-1);
        assertThat(stats.tasks())
                .extracting(SchedulerStats.TaskStats::outcome)
                .allMatch(o -> o == SchedulerStats.Outcome.COMPLETED);
        if (stats.peakHeldBytes() > budget) {
            // over the budget only by one oversized table holding alone
            assertThat(specs).extracting(Spec::bytes).contains(stats.peakHeldBytes());
        }
        long sum = specs.stream().mapToLong(Spec::bytes).sum();
        assertThat(stats.peakHeldBytes()).isLessThanOrEqualTo(sum);
    }

    @Property(tries = 150)
    void aFailureReleasesEverythingAndSurfacesOnceNamingTheFirstFailedTable(
            @ForAll @IntRange(min = 1, max = 6) int k,
            @ForAll("budgets") long budget,
            @ForAll("sometimesFailing") List<Spec> specs,
            @ForAll Random random)
            throws Exception {
        FakeTable.Watch watch = new FakeTable.Watch(budget, specs.size());
        List<FakeTable> tables = tables(specs, watch, random);
        ConcurrentExecutor executor = new ConcurrentExecutor(new SchedulerOptions(k, budget));
        boolean anyFails = specs.stream().anyMatch(Spec::fails);

        TableProvingException thrown = catchThrowableOfType(
                TableProvingException.class, () -> Bounded.within(() -> executor.runAll("pass", tables)));

        assertThat(watch.violations()).isEmpty();
        assertThat(Bounded.liveDrivers()).isZero();
        SchedulerStats stats = executor.lastStats();
        assertThat(stats.heldBytesAtEnd()).isZero();
        for (int i = 0; i < specs.size(); i++) {
            assertThat(watch.runs(i)).as("runs of t%d", i).isLessThanOrEqualTo(1);
            // what the tables saw agrees with what the scheduler recorded
            SchedulerStats.TaskStats task = stats.tasks().get(i);
            assertThat(task.index()).isEqualTo(i);
            assertThat(task.outcome() != SchedulerStats.Outcome.NOT_STARTED)
                    .as("t%d started", i)
                    .isEqualTo(watch.runs(i) == 1);
        }
        if (!anyFails) {
            assertThat(thrown).isNull();
            return;
        }
        List<Integer> failed = watch.failed();
        // the tables are tried heaviest first until one fails, so at least one injected failure happens
        assertThat(failed).isNotEmpty();
        int first = Collections.min(failed);
        assertThat(thrown).isNotNull();
        assertThat(thrown.index()).isEqualTo(first);
        assertThat(thrown.table()).isEqualTo("t" + first);
        assertThat(thrown).hasMessageContaining("'t" + first + "'").hasMessageContaining("pass");
        assertThat(thrown.getCause())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("injected failure in t" + first);
        // the other injected failures ride along; cancellations are not failures
        assertThat(thrown.getSuppressed())
                .hasSize(failed.size() - 1)
                .allSatisfy(s -> assertThat(s)
                        .isInstanceOf(IllegalStateException.class)
                        .isNotInstanceOf(TaskControl.CancelledException.class));
        assertThat(stats.cancelledAtNanos()).isNotNegative();
        for (SchedulerStats.TaskStats task : stats.tasks()) {
            if (task.startNanos() >= 0) {
                assertThat(task.startNanos())
                        .as("t%d started before the cancellation", task.index())
                        .isLessThanOrEqualTo(stats.cancelledAtNanos());
            }
        }
        if (k == 1) {
            // one driver: exactly the heaviest-first prefix up to the first failing table ran
            List<Integer> order = heaviestFirst(specs);
            int stop = 0;
            while (!specs.get(order.get(stop)).fails()) {
                stop++;
            }
            assertThat(watch.startOrder()).containsExactlyElementsOf(order.subList(0, stop + 1));
        }
    }

    @Property(tries = 100)
    void theGateAloneNeverExceedsItsBudgetAndAdmitsEveryone(
            @ForAll @IntRange(min = 1, max = 5) int threads,
            @ForAll("budgets") long budget,
            @ForAll("succeeding") List<Spec> specs)
            throws Exception {
        MemoryGate gate = new MemoryGate(budget);
        AtomicReference<String> violation = new AtomicReference<>();
        AtomicIntegerArray admitted = new AtomicIntegerArray(specs.size());
        Object watch = new Object();
        long[] holding = new long[1];
        int[] holders = new int[1];
        Bounded.within(() -> {
            List<Thread> started = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                started.add(Thread.ofPlatform().start(() -> {
                    for (int i = first; i < specs.size(); i += threads) {
                        long bytes = specs.get(i).bytes();
                        try {
                            assertThat(gate.acquire(bytes)).isTrue();
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                        try {
                            synchronized (watch) {
                                holding[0] += bytes;
                                holders[0] += bytes > 0 ? 1 : 0;
                                // above the budget only one table may hold bytes (then all of them are its own)
                                if (holding[0] > budget && holders[0] != 1) {
                                    violation.compareAndSet(
                                            null, holding[0] + " bytes held by " + holders[0] + " over " + budget);
                                }
                            }
                            admitted.incrementAndGet(i);
                            java.util.concurrent.locks.LockSupport.parkNanos(
                                    specs.get(i).workMicros() * 1_000L);
                            synchronized (watch) {
                                holding[0] -= bytes;
                                holders[0] -= bytes > 0 ? 1 : 0;
                            }
                        } finally {
                            gate.release(bytes);
                        }
                    }
                }));
            }
            for (Thread t : started) {
                t.join();
            }
            return null;
        });
        assertThat(violation.get()).isNull();
        for (int i = 0; i < specs.size(); i++) {
            assertThat(admitted.get(i)).isEqualTo(1);
        }
        assertThat(gate.held()).isZero();
        assertThat(gate.waiting()).isZero();
    }

    private static List<Integer> heaviestFirst(List<Spec> specs) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            order.add(i);
        }
        order.sort(
                Comparator.comparingLong((Integer i) -> -specs.get(i).bytes()).thenComparingInt(i -> i));
        return order;
    }
}
