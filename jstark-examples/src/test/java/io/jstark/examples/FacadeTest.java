package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.debug.BusImbalanceException;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.InvalidStatementException;
import io.jstark.protocol.ProofOptions;
import io.jstark.verifier.VerifiedStatement;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The library facade's guard rails: what it refuses, clearly, instead of hanging or handing out bad proofs. */
class FacadeTest {
    static final ProofOptions SMALL = new ProofOptions(2, 8, 4, 2, 2, "sha256", 0);

    @Test
    void unbalancedBusesAreRefusedInsteadOfProducingAProofThatCannotVerify() {
        Example vm = Examples.byName("vm");
        try (Workload w = vm.generate(6, 4)) {
            TableTrace range = w.table("range16");
            range.main().set(7, 0, range.main().get(7, 0) + 1);
            long live = RamAllocator.shared().liveBytes();
            try (JstarkProver prover = Jstark.prover(vm.airs()).options(SMALL).build()) {
                assertThatThrownBy(() -> prover.prove(w.tables()))
                        .isInstanceOf(BusImbalanceException.class)
                        .hasMessageContaining("buses do not balance")
                        .hasMessageContaining("debug checks");
            }
            // everything the failed proof and the closed prover held is released
            assertThat(RamAllocator.shared().liveBytes()).isEqualTo(live);
        }
    }

    @Test
    void aTableWhoseLdeDomainExceedsTheFieldIsRefusedBeforeThePlanner() {
        Example fib = Examples.byName("fib");
        List<io.jstark.prover.memory.TableDimensions> tall = List.of(
                new io.jstark.prover.memory.TableDimensions("fib", fib.airs().get(0), 28));
        try (JstarkProver prover =
                Jstark.prover(fib.airs()).options(SMALL.withBlowup(32)).build()) {
            for (org.assertj.core.api.ThrowableAssert.ThrowingCallable check :
                    List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
                            () -> prover.checkStatement(tall), () -> prover.plan(tall))) {
                assertThatThrownBy(check)
                        .isInstanceOfSatisfying(
                                InvalidStatementException.class,
                                e -> assertThat(e.remedy())
                                        .hasValueSatisfying(
                                                o -> assertThat(o.blowup()).isEqualTo(16)))
                        .hasMessage(
                                "table 'fib': 2^28 rows at blowup 32 need an LDE domain of 2^33 points, and the field's two-adic "
                                        + "domains have at most 2^32: lower --blowup to 16 or the height to 2^27");
            }
        }
    }

    @Test
    void twoTablesWithOneNameAreRefused() {
        Example fib = Examples.byName("fib");
        try (Workload a = fib.generate(4, 1);
                Workload b = fib.generate(5, 2);
                JstarkProver prover = Jstark.prover(fib.airs()).options(SMALL).build()) {
            assertThatThrownBy(() ->
                            prover.prove(List.of(a.tables().get(0), b.tables().get(0))))
                    .isInstanceOf(InvalidStatementException.class)
                    .hasMessageContaining("two tables have this name");
        }
    }

    @Test
    @Timeout(60)
    void provingFromAWorkerOfTheProversOwnPoolIsRefusedNotDeadlocked() {
        Example fib = Examples.byName("fib");
        try (Workload w = fib.generate(4, 1);
                WorkerPool pool = WorkerPool.ofThreads(2);
                JstarkProver prover =
                        Jstark.prover(fib.airs()).options(SMALL).pool(pool).build()) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            // two chunks: the pool runs them on its workers (a single chunk would run on this thread)
            pool.forEachChunk(2, i -> {
                try {
                    prover.prove(w.tables());
                } catch (RuntimeException e) {
                    failure.set(e);
                }
            });
            assertThat(failure.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("own worker pool");
            // and from an ordinary thread it proves
            VerifiedStatement statement;
            try {
                statement = io.jstark.Jstark.verify(
                        prover.verifyingKey(),
                        io.jstark.protocol.Statement.ofTraces(w.tables()),
                        prover.prove(w.tables()).bytes());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            assertThat(statement.tables()).hasSize(1);
        }
    }

    @Test
    void publicInputsPrintAsFieldElements() {
        VerifiedStatement.Table t = new VerifiedStatement.Table("t", "fib", 4, new long[] {-1041056189838986770L, 5});
        assertThat(t.toString()).contains("[17405687883870564846, 5]");
    }
}
