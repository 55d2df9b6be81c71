package io.jstark.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.expr.Expr;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.prover.exec.SequentialExecutor;
import io.jstark.prover.exec.TableExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The proof bytes do not depend on the executor: sequential, and concurrent for every k and budget. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProofIdentityTest {
    static final ProofOptions SMALL = new ProofOptions(2, 8, 4, 1, 1, "sha256", 0);
    static final long[] ROUND_CONSTANTS = {3, 5, 7, 11, 13, 17, 19, 23};
    static final Air FIB = fib();
    static final Air CUBE = cube();

    static ProvingKey key;
    static List<TableTrace> traces;

    private static Air fib() {
        AirBuilder b = Air.builder("fib");
        Expr.MainCell a = b.main("a");
        Expr.MainCell c = b.main("b");
        Expr a0 = b.publicInput("a0");
        Expr result = b.publicInput("result");
        b.transition("a' = b", a.next().sub(c));
        b.transition("b' = a + b", c.next().sub(a.add(c)));
        b.first("a = a0", a.sub(a0));
        b.first("b = 1", c.sub(1));
        b.last("b = result", c.sub(result));
        return b.build();
    }

    /** x' = x^3 + k(row), degree 3 with a periodic round constant. */
    private static Air cube() {
        AirBuilder b = Air.builder("cube");
        Expr.MainCell x = b.main("x");
        Expr k = b.periodic("k", ROUND_CONSTANTS);
        Expr seed = b.publicInput("seed");
        Expr result = b.publicInput("result");
        b.transition("x' = x^3 + k", x.next().sub(x.pow(3).add(k)));
        b.first("x = seed", x.sub(seed));
        b.last("x = result", x.sub(result));
        return b.build();
    }

    static TableTrace fibTrace(String name, int logRows, long a0) {
        int n = 1 << logRows;
        long[] a = new long[n];
        long[] b = new long[n];
        a[0] = a0;
        b[0] = 1;
        for (int i = 1; i < n; i++) {
            a[i] = b[i - 1];
            b[i] = Goldilocks.add(a[i - 1], b[i - 1]);
        }
        Matrix m = Matrix.allocate(RamAllocator.shared(), name, n, 2);
        m.writeColumn(0, 0, a, 0, n);
        m.writeColumn(1, 0, b, 0, n);
        return new TableTrace(name, FIB, m, new long[] {a0, b[n - 1]});
    }

    static TableTrace cubeTrace(String name, int logRows, long seed) {
        int n = 1 << logRows;
        long[] x = new long[n];
        x[0] = seed;
        for (int i = 1; i < n; i++) {
            long p = x[i - 1];
            x[i] = Goldilocks.add(Goldilocks.mul(p, Goldilocks.mul(p, p)), ROUND_CONSTANTS[(i - 1) % 8]);
        }
        Matrix m = Matrix.allocate(RamAllocator.shared(), name, n, 1);
        m.writeColumn(0, 0, x, 0, n);
        return new TableTrace(name, CUBE, m, new long[] {seed, x[n - 1]});
    }

    @BeforeAll
    static void tables() {
        key = ProvingKey.of(List.of(FIB, CUBE));
        // different heights, so heaviest-first differs from the index order
        traces = List.of(fibTrace("fib-small", 4, 2), cubeTrace("cube", 6, 9), fibTrace("fib-large", 7, 5), fibTrace("fib-mid", 5, 1));
    }

    @AfterAll
    static void close() {
        for (TableTrace t : traces) {
            t.main().close();
        }
        key.close();
    }

    static byte[] prove(TableExecutor executor) {
        return ProofFormat.write(new StarkProver(key, SMALL, ProverSettings.defaults().withExecutor(executor)).prove(traces));
    }

    @Test
    void proofBytesAreTheSameForEveryKAndBudget() {
        byte[] sequential = prove(SequentialExecutor.INSTANCE);
        List<String> checked = new ArrayList<>();
        for (int k = 1; k <= 4; k++) {
            // 1 byte: every table is oversized and runs alone; unlimited: up to k at once
            for (long budget : new long[] {1, Long.MAX_VALUE}) {
                List<SchedulerStats> passes = new CopyOnWriteArrayList<>();
                ConcurrentExecutor executor = new ConcurrentExecutor(new SchedulerOptions(k, budget), passes::add);
                assertThat(prove(executor)).as("k=%d budget=%d", k, budget).isEqualTo(sequential);
                assertThat(passes).extracting(SchedulerStats::phase).containsExactly(StarkProver.PHASE_MAIN_COMMIT, StarkProver.PHASE_TABLE_CHAIN);
                for (SchedulerStats pass : passes) {
                    assertThat(pass.heldBytesAtEnd()).isZero();
                    long largest = pass.tasks().stream().mapToLong(SchedulerStats.TaskStats::estimatedBytes).max().orElseThrow();
                    if (budget == 1) {
                        // each table alone: never more than the largest one held
                        assertThat(pass.peakHeldBytes()).isEqualTo(largest);
                    }
                }
                checked.add("k=" + k + " budget=" + ByteSize.format(budget));
            }
        }
        assertThat(checked).hasSize(8);
        assertThat(Bounded.liveDrivers()).isZero();
    }
}
