package io.jstark.examples.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.debug.BusImbalanceException;
import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import io.jstark.prover.exec.TableProvingException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A backend that keeps every table's trace, LDEs and trees in memory of its own, on a thread of its own, and
 * answers only through the session's handles, makes the same proof bytes as the CPU backend; it releases all it
 * holds after a proof and after a refused one.
 */
class IsolatedBackendTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 8, 4, 2, 2, "sha256", 0);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fib", "vm", "mix"})
    void aBackendReachedOnlyThroughItsHandlesGivesTheCpuBackendsBytes(String name) throws Exception {
        Example example = Examples.byName(name);
        java.util.List<String> passes = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (IsolatedBackend isolated = new IsolatedBackend();
                Workload w = example.generate(example.minLogSize() + 1, 13);
                JstarkProver cpu =
                        Jstark.prover(example.airs()).options(OPTIONS).build();
                JstarkProver other = Jstark.prover(example.airs())
                        .options(OPTIONS)
                        .backend(isolated)
                        .progress(new io.jstark.prover.ProgressListener() {
                            @Override
                            public void passStarted(String phase, int tables) {
                                passes.add(phase);
                            }
                        })
                        .build()) {
            byte[] reference = cpu.prove(w.tables()).bytes();
            JstarkProver.Result result = other.prove(w.tables());
            byte[] bytes = result.bytes();
            assertThat(bytes).isEqualTo(reference);
            // the progress bars and the memory meter follow the prover's rounds, whatever the backend
            assertThat(passes).containsExactly("main_commit", "aux", "composition", "ood", "deep");
            assertThat(result.memory())
                    .extracting(io.jstark.storage.memory.MemoryMeter.Phase::phase)
                    .contains("main_commit", "deep");
            Jstark.verify(other.verifyingKey(), Statement.ofTraces(w.tables()), bytes);
            assertThat(isolated.deviceThreads()).isEqualTo(Set.of(IsolatedBackend.DEVICE_THREAD));
            assertThat(isolated.downloadedBytes()).isPositive();
            assertThat(isolated.sessionsOpen()).isZero();
            assertThat(isolated.deviceMemory().liveBytes())
                    .as("what the device holds after the proof")
                    .isZero();
            assertThat(isolated.deviceMemory().peakBytes())
                    .as("the tables' LDEs lived on the device")
                    .isGreaterThan(w.tables().stream()
                            .mapToLong(t -> t.main().bytes() << OPTIONS.logBlowup())
                            .sum());
        }
    }

    @Test
    void thePlanCountsOnTheHostOnlyWhatTheProverKeepsThereAndNotesTheDevice() throws Exception {
        Example example = Examples.byName("mix");
        try (IsolatedBackend isolated = new IsolatedBackend();
                Workload w = example.generate(example.minLogSize() + 1, 13);
                JstarkProver cpu =
                        Jstark.prover(example.airs()).options(OPTIONS).build();
                JstarkProver other = Jstark.prover(example.airs())
                        .options(OPTIONS)
                        .backend(isolated)
                        .build()) {
            java.util.List<io.jstark.prover.memory.TableDimensions> shapes = w.tables().stream()
                    .map(io.jstark.prover.memory.TableDimensions::of)
                    .toList();
            io.jstark.storage.StoragePlan onCpu = cpu.plan(shapes);
            io.jstark.storage.StoragePlan onDevice = other.plan(shapes);
            long tableLdes = w.tables().stream()
                    .mapToLong(t -> t.main().bytes() << OPTIONS.logBlowup())
                    .sum();
            assertThat(onCpu.prediction().peakRamBytes() - onDevice.prediction().peakRamBytes())
                    .as("the LDEs are not on the host")
                    .isGreaterThanOrEqualTo(tableLdes);
            assertThat(onDevice.notes())
                    .anyMatch(n -> n.startsWith("isolated device memory: every table at once would hold "));
        }
    }

    @Test
    void anUnbalancedBusIsRefusedAfterTheAuxRoundAndTheDeviceIsEmptied() throws Exception {
        Example example = Examples.byName("vm");
        try (IsolatedBackend isolated = new IsolatedBackend();
                Workload w = example.generate(example.minLogSize() + 1, 13);
                JstarkProver prover = Jstark.prover(example.airs())
                        .options(OPTIONS)
                        .backend(isolated)
                        .build()) {
            TableTrace receiver = w.tables().stream()
                    .filter(t -> t.air().interactions().stream()
                            .anyMatch(b -> b.direction() == io.jstark.air.BusInteraction.Direction.RECEIVE))
                    .findFirst()
                    .orElseThrow();
            int column = multiplicityColumn(receiver);
            receiver.main().set(0, column, receiver.main().get(0, column) + 1);
            assertThatThrownBy(() -> prover.prove(w.tables()))
                    .isInstanceOf(BusImbalanceException.class)
                    .hasMessageContaining("table '" + receiver.name() + "'");
            assertThat(isolated.sessionsOpen()).isZero();
            assertThat(isolated.deviceMemory().liveBytes()).isZero();
        }
    }

    @Test
    void aTraceBreakingAConstraintIsTypedAndTheDeviceIsEmptied() throws Exception {
        Example example = Examples.byName("fib");
        try (IsolatedBackend isolated = new IsolatedBackend();
                Workload w = example.generate(example.minLogSize() + 1, 13);
                JstarkProver prover = Jstark.prover(example.airs())
                        .options(OPTIONS)
                        .backend(isolated)
                        .build()) {
            TableTrace fib = w.tables().getFirst();
            fib.main().set(5, 1, fib.main().get(5, 1) + 1);
            assertThatThrownBy(() -> prover.prove(w.tables()))
                    .isInstanceOf(TableProvingException.class)
                    .cause()
                    .isInstanceOfSatisfying(
                            ConstraintViolationException.class,
                            v -> assertThat(v.row()).isBetween(4, 5));
            assertThat(isolated.sessionsOpen()).isZero();
            assertThat(isolated.deviceMemory().liveBytes()).isZero();
        }
    }

    /** The column of the receiver's first multiplicity that is a plain column (so one more count unbalances the bus). */
    private static int multiplicityColumn(TableTrace receiver) {
        for (io.jstark.air.BusInteraction b : receiver.air().interactions()) {
            if (b.direction() == io.jstark.air.BusInteraction.Direction.RECEIVE
                    && b.multiplicity() instanceof io.jstark.air.expr.Expr.MainCell c
                    && c.rowOffset() == 0) {
                return c.column();
            }
        }
        throw new IllegalStateException("no receive with a column multiplicity in " + receiver.name());
    }
}
