package io.jstark.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.instrument.ByteSize;
import io.jstark.instrument.SpanLabels;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.prover.TestAirs;
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
    static final Air FIB = TestAirs.FIB;
    static final Air CUBE = TestAirs.CUBE;

    static ProvingKey key;
    static List<TableTrace> traces;

    static TableTrace fibTrace(String name, int logRows, long a0) {
        return TestAirs.fibTrace(name, logRows, a0);
    }

    static TableTrace cubeTrace(String name, int logRows, long seed) {
        return TestAirs.cubeTrace(name, logRows, seed);
    }

    @BeforeAll
    static void tables() {
        key = ProvingKey.of(List.of(FIB, CUBE));
        // different heights, so heaviest-first differs from the index order
        traces = List.of(
                fibTrace("fib-small", 4, 2),
                cubeTrace("cube", 6, 9),
                fibTrace("fib-large", 7, 5),
                fibTrace("fib-mid", 5, 1));
    }

    @AfterAll
    static void close() {
        for (TableTrace t : traces) {
            t.main().close();
        }
        key.close();
    }

    static byte[] prove(TableExecutor executor) {
        return ProofFormat.write(
                new StarkProver(key, SMALL, ProverSettings.defaults().withExecutor(executor)).prove(traces));
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
                assertThat(passes)
                        .extracting(SchedulerStats::phase)
                        .containsExactly(SpanLabels.MAIN_COMMIT, "aux", "composition", "ood", "deep");
                for (SchedulerStats pass : passes) {
                    assertThat(pass.heldBytesAtEnd()).isZero();
                    long largest = pass.tasks().stream()
                            .mapToLong(SchedulerStats.TaskStats::estimatedBytes)
                            .max()
                            .orElseThrow();
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
