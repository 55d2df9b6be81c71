package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.air.debug.BusBalanceChecker;
import io.jstark.air.debug.BusImbalanceException;
import io.jstark.air.debug.ConstraintChecker;
import io.jstark.air.logup.AuxTraceBuilder;
import io.jstark.air.logup.LogUpPlan;
import io.jstark.air.program.Uniforms;
import io.jstark.air.trace.Preprocessed;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The debug checks of a whole workload, before (or instead of) proving it: every table's constraints,
 * the bus balance across tables, and the LogUp argument on given challenges. Each failure is the typed
 * exception of jstark-air's checkers, naming the table.
 */
public final class WorkloadChecks {
    private WorkloadChecks() {}

    /** Every table's bus contribution on some challenges, and their total (zero for a balanced workload). */
    public record LogUpSums(List<Ext3> perTable, Ext3 total) {
        public LogUpSums {
            perTable = List.copyOf(perTable);
        }
    }

    /**
     * The user constraints of every table.
     *
     * @throws io.jstark.air.debug.ConstraintViolationException at the first failing table, row and constraint
     */
    public static void checkConstraints(Workload workload) {
        try (PreprocessedCache pre = new PreprocessedCache()) {
            for (TableTrace t : workload.tables()) {
                ConstraintChecker.check(
                        t.name(), t.air(), t.main(), pre.of(t.air()), null, Uniforms.of(t.publicInputs()));
            }
        }
    }

    /**
     * Replays every send and receive: each tuple sent must be received as often.
     *
     * @throws BusImbalanceException naming the tuples and the tables that sent or received them
     */
    public static void checkBuses(Workload workload) {
        try (PreprocessedCache pre = new PreprocessedCache()) {
            List<BusBalanceChecker.TableInput> inputs = new ArrayList<>();
            for (TableTrace t : workload.tables()) {
                inputs.add(new BusBalanceChecker.TableInput(
                        t.name(), t.air(), t.main(), pre.of(t.air()), t.publicInputs()));
            }
            BusBalanceChecker.check(inputs);
        }
    }

    /**
     * Builds every table's LogUp aux trace on {@code challenges}, checks all of its constraints (user and
     * LogUp) against it, and returns the bus contributions. The caller decides what the total must be.
     *
     * @throws io.jstark.air.debug.ConstraintViolationException at the first failing table
     */
    public static LogUpSums checkLogUp(Workload workload, Ext3[] challenges) {
        if (challenges.length != LogUpPlan.CHALLENGE_COUNT) {
            throw new IllegalArgumentException(
                    "LogUp takes " + LogUpPlan.CHALLENGE_COUNT + " challenges, got " + challenges.length);
        }
        List<Ext3> sums = new ArrayList<>();
        Ext3 total = Ext3.ZERO;
        try (PreprocessedCache pre = new PreprocessedCache()) {
            for (TableTrace t : workload.tables()) {
                Matrix preprocessed = pre.of(t.air());
                Uniforms uniforms = Uniforms.of(t.publicInputs()).withChallenges(challenges);
                if (t.air().auxWidth() == 0) {
                    ConstraintChecker.check(t.name(), t.air(), t.main(), preprocessed, null, uniforms);
                    sums.add(Ext3.ZERO);
                    continue;
                }
                AuxTraceBuilder.AuxTrace aux = AuxTraceBuilder.build(
                        t.name(),
                        t.air(),
                        t.main(),
                        preprocessed,
                        t.publicInputs(),
                        challenges,
                        RamAllocator.shared(),
                        WorkerPool.common());
                try (Matrix auxMatrix = aux.matrix()) {
                    ConstraintChecker.check(
                            t.name(), t.air(), t.main(), preprocessed, auxMatrix, uniforms.withBusSum(aux.busSum()));
                }
                sums.add(aux.busSum());
                total = total.add(aux.busSum());
            }
        }
        return new LogUpSums(sums, total);
    }

    /** Challenges drawn from a seed, for checks that stand in for the transcript. */
    public static Ext3[] randomChallenges(long seed) {
        SplittableRandom rnd = Seeds.stream(seed, -1);
        Ext3[] challenges = new Ext3[LogUpPlan.CHALLENGE_COUNT];
        for (int i = 0; i < challenges.length; i++) {
            challenges[i] = new Ext3(Seeds.fieldElement(rnd), Seeds.fieldElement(rnd), Seeds.fieldElement(rnd));
        }
        return challenges;
    }

    /**
     * All three checks; the LogUp sums of all tables must add to zero.
     *
     * @throws BusImbalanceException when the buses do not balance (by replay or by LogUp sums)
     */
    public static void checkAll(Workload workload, long challengeSeed) {
        checkConstraints(workload);
        checkBuses(workload);
        LogUpSums sums = checkLogUp(workload, randomChallenges(challengeSeed));
        if (!sums.total().isZero()) {
            throw new BusImbalanceException(
                    List.of("the LogUp bus sums of all tables add to " + sums.total() + ", not zero"), 1);
        }
    }

    /** Each definition's preprocessed columns, materialised once per check and freed after it. */
    private static final class PreprocessedCache implements AutoCloseable {
        private final Map<Air, Matrix> matrices = new IdentityHashMap<>();

        Matrix of(Air air) {
            if (air.preprocessedWidth() == 0) {
                return null;
            }
            return matrices.computeIfAbsent(air, a -> Preprocessed.generate(a, RamAllocator.shared()));
        }

        @Override
        public void close() {
            for (Matrix m : matrices.values()) {
                m.close();
            }
        }
    }
}
