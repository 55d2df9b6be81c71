package io.jstark.storage.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.TableTrace;
import io.jstark.instrument.ByteSize;
import io.jstark.instrument.SpanLabels;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.MatrixRole;
import io.jstark.prover.MemoryEstimates;
import io.jstark.prover.ProofPhase;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.prover.StoragePolicy;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.TestAirs;
import io.jstark.prover.memory.Allocation;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.prover.memory.TableMemory;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The memory model against what the prover really allocates: every off-heap buffer goes through a
 * recording storage policy, so per-table allocation sequences (per phase), per-role bytes and per-table
 * peaks must match the model, and the whole proof's measured peaks must lie within its phase predictions.
 */
class MemoryModelTest {
    static Stream<ProofOptions> options() {
        return Stream.of(
                new ProofOptions(2, 8, 0, 1, 1, "sha256", 0), // blowup 4, folding 2
                new ProofOptions(3, 8, 0, 2, 3, "sha256", 0), // blowup 8, folding 4 (the default's shape)
                new ProofOptions(1, 8, 0, 3, 0, "blake3", 0)); // blowup 2, folding 8, no final degree
    }

    private static List<TableTrace> workload() {
        TableTrace s1 = TestAirs.senderTrace("sender-big", 9, 1);
        TableTrace s2 = TestAirs.senderTrace("sender-small", 5, 2);
        List<TableTrace> traces = new ArrayList<>();
        traces.add(TestAirs.cube3Trace("cube-big", 9, 5));
        traces.add(s1);
        traces.add(TestAirs.bytesTrace(List.of(s1, s2)));
        traces.add(s2);
        traces.add(TestAirs.cube3Trace("cube-small", 3, 7));
        return traces;
    }

    private static void close(List<TableTrace> traces) {
        for (TableTrace t : traces) {
            t.main().close();
        }
    }

    /**
     * Every table's LDEs and trees live until the one query phase, so each pass holds all of them; the global
     * buffers (phase trees, lifted sum, its FRI) go with the tallest table. Per table, every buffer is predicted
     * exactly: in the phase that makes it, in order, with its role and bytes, and so is each table's own peak in
     * each phase, but in {@code deep}, where the model holds a DEEP polynomial to the end of the FRI pass that the
     * lifted sum closes inside it (over by at most that polynomial). The whole proof's measured peaks: the prepass
     * and the main commit exactly, every other phase enclosed by its prediction, the peak over by at most the
     * tables' DEEP polynomials.
     */
    @ParameterizedTest
    @MethodSource("options")
    void everyBufferIsPredictedExactlyAndThePredictionEnclosesEveryPeak(ProofOptions options) {
        WorkerPool pool = WorkerPool.ofThreads(2);
        List<TableTrace> traces = new ArrayList<>(workload());
        try (ProvingKey key = ProvingKey.of(List.of(TestAirs.CUBE3, TestAirs.SENDER, TestAirs.BYTES))) {
            RecordingPolicy policy = new RecordingPolicy(Placement.RAM);
            MemoryModel model = new MemoryModel(options, pool.parallelism());
            List<TableDimensions> dims =
                    traces.stream().map(TableDimensions::of).toList();
            List<TableMemory> tables = model.tables(dims);
            MemoryPrediction predicted = model.predictFor(tables, 1, Long.MAX_VALUE, Placement.RAM);
            MemoryMeter meter = MemoryMeter.start(RamAllocator.shared(), null);
            new StarkProver(
                            key,
                            options,
                            ProverSettings.defaults()
                                    .withPool(pool)
                                    .withStorage(policy)
                                    .withProgress(meter.listener(policy.passTracker())))
                    .prove(traces);
            List<MemoryMeter.Phase> measured = meter.finish();

            long deepPolynomials = 0;
            for (TableMemory table : tables) {
                List<RecordingPolicy.Event> recorded = policy.events().stream()
                        .filter(e -> e.table().equals(table.name()))
                        .toList();
                long deep = table.buffers().buffers().stream()
                        .filter(b -> b.what().equals("deep-coefficients"))
                        .mapToLong(TableBuffers.Buffer::bytes)
                        .sum();
                deepPolynomials += deep;
                for (MemoryPrediction.PhasePeak p : predicted.phases()) {
                    List<TableMemory.Event> modelled = eventsMeasuredIn(table, p.phase());
                    assertThat(acquires(recorded, p.phase()))
                            .as("buffers %s makes in %s", table.name(), p.phase())
                            .isEqualTo(acquires(modelled));
                    long over = peak(modelled) - peak(recorded, p.phase());
                    assertThat(over)
                            .as("peak of %s in %s", table.name(), p.phase())
                            .isBetween(0L, p.phase().equals("deep") ? deep : 0L);
                }
                assertThat(bytesByRole(recorded))
                        .as("bytes per role of %s", table.name())
                        .isEqualTo(table.allocatedBytesByRole());
                assertThat(released(recorded))
                        .as("everything of %s is closed", table.name())
                        .isTrue();
                // the main LDE is held into every later pass; into the global FRI and queries, every LDE
                for (ProofPhase pass :
                        List.of(ProofPhase.AUX, ProofPhase.COMPOSITION, ProofPhase.OOD, ProofPhase.DEEP)) {
                    assertThat(table.heldInto(pass, Placement.RAM, false))
                            .as("%s held into %s", table.name(), pass)
                            .isGreaterThanOrEqualTo(table.allocatedBytes(MatrixRole.MAIN_LDE));
                }
                assertThat(table.heldInto(ProofPhase.FRI, Placement.RAM, false))
                        .as("%s held into the FRI", table.name())
                        .isGreaterThanOrEqualTo(table.allocatedBytes(MatrixRole.MAIN_LDE)
                                + table.allocatedBytes(MatrixRole.AUX_LDE)
                                + table.allocatedBytes(MatrixRole.COMPOSITION_LDE));
            }
            assertThat(tables.stream().filter(t -> t.allocatedBytes(MatrixRole.FRI_LAYER) > 0))
                    .as("one FRI, the tallest table's")
                    .hasSize(1);
            for (MemoryPrediction.PhasePeak p : predicted.phases()) {
                assertThat(phase(measured, p.phase()).ramOffHeap())
                        .as("off-heap in %s", p.phase())
                        .isLessThanOrEqualTo(p.ramOffHeap());
            }
            assertThat(predicted.phases())
                    .extracting(MemoryPrediction.PhasePeak::phase)
                    .containsExactly(SpanLabels.PREPASS, SpanLabels.MAIN_COMMIT, "aux", "composition", "ood", "deep");
            assertThat(phase(measured, SpanLabels.PREPASS).ramOffHeap())
                    .isEqualTo(predicted.phase(SpanLabels.PREPASS).ramOffHeap());
            assertThat(phase(measured, SpanLabels.MAIN_COMMIT).ramOffHeap())
                    .isEqualTo(predicted.phase(SpanLabels.MAIN_COMMIT).ramOffHeap());
            long over =
                    predicted.peakOffHeapBytes() - MemoryMeter.peak(measured).ramOffHeap();
            assertThat(over).isBetween(0L, deepPolynomials);
        } finally {
            close(traces);
            pool.close();
        }
    }

    /** One table: its DEEP polynomial is FRI's input itself (no lifted sum is made), and the model says so buffer for buffer. */
    @Test
    void aOneTableProofHandsItsDeepPolynomialToFriAndTheModelMakesNoSum() {
        ProofOptions options = new ProofOptions(2, 8, 0, 1, 1, "sha256", 0);
        WorkerPool pool = WorkerPool.ofThreads(2);
        TableTrace trace = TestAirs.cube3Trace("cube", 9, 5);
        try (ProvingKey key = ProvingKey.of(List.of(TestAirs.CUBE3))) {
            RecordingPolicy policy = new RecordingPolicy(Placement.RAM);
            TableMemory table = new MemoryModel(options, pool.parallelism()).table(TableDimensions.of(trace));
            new StarkProver(
                            key,
                            options,
                            ProverSettings.defaults()
                                    .withPool(pool)
                                    .withStorage(policy)
                                    .withProgress(policy.passTracker()))
                    .prove(List.of(trace));
            List<RecordingPolicy.Event> recorded = policy.events();
            assertThat(table.buffers().buffers())
                    .extracting(TableBuffers.Buffer::what)
                    .doesNotContain("lifted-deep")
                    .contains("deep-coefficients");
            assertThat(bytesByRole(recorded)).isEqualTo(table.allocatedBytesByRole());
            assertThat(acquires(recorded, "deep")).isEqualTo(acquires(eventsMeasuredIn(table, "deep")));
            assertThat(released(recorded)).isTrue();
        } finally {
            trace.main().close();
            pool.close();
        }
    }

    @Test
    void aChangeToTheDescriptionChangesThePrediction() {
        ProofOptions options = new ProofOptions(3, 8, 0, 2, 3, "sha256", 0);
        TableTrace trace = TestAirs.senderTrace("sender", 10, 3);
        try {
            TableDimensions dims = TableDimensions.of(trace);
            TableBuffers described = TableBuffers.of(dims, options, 2);
            TableMemory before = TableMemory.of(described);
            MemoryModel model = new MemoryModel(options, 2);
            for (ProofPhase pass : ProofPhase.values()) {
                assertThat(model.table(dims).events(pass)).as("%s", pass).isEqualTo(before.events(pass));
            }

            // a larger main LDE: held from the main commit to the queries, so every phase after the prepass grows by it
            long mainLde = before.allocatedBytes(MatrixRole.MAIN_LDE);
            TableMemory larger = TableMemory.of(described.with(
                    "main-lde",
                    b -> new TableBuffers.Buffer(
                            b.what(),
                            b.kind(),
                            b.role(),
                            b.rows(),
                            b.columns(),
                            2 * b.bytes(),
                            b.first(),
                            b.last(),
                            b.rereads())));
            assertThat(larger.mainCommitUsage(Placement.RAM).ramOffHeap())
                    .isEqualTo(before.mainCommitUsage(Placement.RAM).ramOffHeap() + mainLde);
            assertThat(larger.heldBytes(Placement.RAM, false))
                    .isEqualTo(before.heldBytes(Placement.RAM, false) + mainLde);
            MemoryPrediction p0 = model.predictFor(List.of(before), 1, Long.MAX_VALUE, Placement.RAM);
            MemoryPrediction p1 = model.predictFor(List.of(larger), 1, Long.MAX_VALUE, Placement.RAM);
            assertThat(p0.phases()).hasSize(6);
            for (MemoryPrediction.PhasePeak phase :
                    p0.phases().subList(1, p0.phases().size())) {
                assertThat(p1.phase(phase.phase()).ramOffHeap())
                        .as(phase.phase())
                        .isEqualTo(phase.ramOffHeap() + mainLde);
            }

            // composition scratch kept to the queries: held out of its pass, into every later one
            TableBuffers.Buffer composition = described.buffers().stream()
                    .filter(b -> b.what().equals("composition"))
                    .findFirst()
                    .orElseThrow();
            int queries = described.steps().size() - 1;
            TableMemory longer = TableMemory.of(described.with(
                    "composition",
                    b -> new TableBuffers.Buffer(
                            b.what(),
                            b.kind(),
                            b.role(),
                            b.rows(),
                            b.columns(),
                            b.bytes(),
                            b.first(),
                            queries,
                            b.rereads())));
            ProofPhase pass = ProofPhase.COMPOSITION;
            long delta = longer.usage(pass, Placement.RAM).ramOffHeap()
                    - before.usage(pass, Placement.RAM).ramOffHeap();
            assertThat(delta).isPositive().isLessThanOrEqualTo(composition.bytes());
            assertThat(longer.events(pass))
                    .hasSize(before.events(pass).size() - 1)
                    .isNotEqualTo(before.events(pass));
            for (ProofPhase later : List.of(ProofPhase.OOD, ProofPhase.DEEP, ProofPhase.FRI)) {
                assertThat(longer.heldInto(later, Placement.RAM, false))
                        .as("%s", later)
                        .isEqualTo(before.heldInto(later, Placement.RAM, false) + composition.bytes());
            }
            // spilling its role takes exactly it out of RAM at every step
            Placement compositionSpills = (t, role) -> role == MatrixRole.COMPOSITION_SCRATCH;
            assertThat(longer.usage(pass, compositionSpills).spill())
                    .isEqualTo(before.allocatedBytes(MatrixRole.COMPOSITION_SCRATCH));
            assertThatThrownBy(() -> described.with("no-such-buffer", b -> b))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no buffer 'no-such-buffer'");
        } finally {
            trace.main().close();
        }
    }

    @Test
    void gateEstimatesComeFromTheModelAndLeaveOutSpilledBuffers() {
        ProofOptions options = new ProofOptions(3, 8, 0, 2, 3, "sha256", 0);
        TableTrace trace = TestAirs.senderTrace("sender", 10, 3);
        try {
            TableMemory table = new MemoryModel(options, 4).table(TableDimensions.of(trace));
            Placement ldes = (t, role) -> role == MatrixRole.MAIN_LDE || role == MatrixRole.AUX_LDE;
            RecordingPolicy spilling = new RecordingPolicy(ldes);
            assertThat(MemoryEstimates.mainCommitBytes(trace, options, 4))
                    .isEqualTo(table.mainCommitUsage(Placement.RAM).ram());
            for (ProofPhase pass : List.of(ProofPhase.AUX, ProofPhase.COMPOSITION, ProofPhase.OOD, ProofPhase.DEEP)) {
                assertThat(MemoryEstimates.passBytes(trace, options, 4, pass, StoragePolicy.RAM))
                        .as("%s", pass)
                        .isEqualTo(table.usage(pass, Placement.RAM).ram());
            }
            long mainLde = table.allocatedBytes(MatrixRole.MAIN_LDE);
            long auxLde = table.allocatedBytes(MatrixRole.AUX_LDE);
            assertThat(mainLde).isEqualTo(8L * (1024 * 8) * 2);
            assertThat(auxLde).isEqualTo(8L * (1024 * 8) * 3 * trace.air().auxWidth());
            // a spilled buffer leaves RAM but its steps keep a window of its file resident: the gate counts that window
            long mainWindow = table.residentWindow(ProofPhase.MAIN_COMMIT, ldes);
            // the aux pass makes the aux LDE and reads the main LDE held into it
            ProofPhase aux = ProofPhase.AUX;
            long auxWindow = table.residentWindow(aux, ldes);
            assertThat(mainWindow).isPositive().isLessThanOrEqualTo(mainLde);
            assertThat(auxWindow).isGreaterThan(mainWindow).isLessThanOrEqualTo(mainLde + auxLde);
            assertThat(table.residentWindow(aux, Placement.RAM)).isZero();
            assertThat(MemoryEstimates.mainCommitBytes(trace, options, 4, spilling))
                    .isEqualTo(table.mainCommitUsage(ldes).ram() + mainWindow)
                    .isLessThanOrEqualTo(MemoryEstimates.mainCommitBytes(trace, options, 4) - mainLde + mainWindow);
            assertThat(MemoryEstimates.passBytes(trace, options, 4, aux, spilling))
                    .isEqualTo(table.usage(aux, ldes).ram() + auxWindow)
                    .isLessThanOrEqualTo(
                            MemoryEstimates.passBytes(trace, options, 4, aux, StoragePolicy.RAM) - auxLde + auxWindow);
            assertThat(table.usage(aux, ldes).spill()).isEqualTo(auxLde);
            // both LDEs are held to the queries: in spill files together
            assertThat(table.heldBytes(ldes, true)).isEqualTo(mainLde + auxLde);
        } finally {
            trace.main().close();
        }
    }

    @Test
    void spillingEverythingLeavesOnlyTracesAndKeyOffHeapInRam() {
        ProofOptions options = new ProofOptions(2, 8, 0, 1, 1, "sha256", 0);
        List<TableTrace> traces = workload();
        try {
            List<TableDimensions> dims =
                    traces.stream().map(TableDimensions::of).toList();
            MemoryModel model = new MemoryModel(options, 2);
            MemoryPrediction ram = model.predict(dims, 2, Long.MAX_VALUE, Placement.RAM);
            MemoryPrediction disk = model.predict(dims, 2, Long.MAX_VALUE, Placement.DISK);
            long fixed = disk.inputBytes() + disk.provingKeyBytes();
            assertThat(disk.phases()).hasSize(6);
            for (MemoryPrediction.PhasePeak p :
                    disk.phases().subList(1, disk.phases().size())) {
                assertThat(p.ramOffHeap()).as(p.phase()).isEqualTo(fixed);
                // what left RAM went to disk, buffer for buffer
                assertThat(p.spill())
                        .as(p.phase())
                        .isEqualTo(ram.phase(p.phase()).ramOffHeap() - fixed);
            }
            assertThat(disk.peakHeapBytes()).isEqualTo(ram.peakHeapBytes());
            assertThat(disk.lines()).anySatisfy(l -> assertThat(l).startsWith("predicted peak"));
        } finally {
            close(traces);
        }
    }

    @Test
    void tablesRunningTogetherAreTheKLargestWithinTheGate() {
        long[] chains = {10, 50, 30, 20};
        assertThat(MemoryModel.largestRunningTogether(chains, chains, 1, Long.MAX_VALUE))
                .isEqualTo(50);
        assertThat(MemoryModel.largestRunningTogether(chains, chains, 2, Long.MAX_VALUE))
                .isEqualTo(80);
        assertThat(MemoryModel.largestRunningTogether(chains, chains, 9, Long.MAX_VALUE))
                .isEqualTo(110);
        // the gate admits at most 60 bytes at once: never more than that, unless one table alone is larger
        assertThat(MemoryModel.largestRunningTogether(chains, chains, 3, 60)).isEqualTo(60);
        assertThat(MemoryModel.largestRunningTogether(chains, chains, 3, 40)).isEqualTo(50);
        // values the gate does not see (e.g. spill) are not capped by it
        long[] spill = {100, 0, 0, 100};
        assertThat(MemoryModel.largestRunningTogether(spill, chains, 2, 40)).isEqualTo(200);
    }

    @Test
    void tableShapesAreChecked() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TableDimensions("b", TestAirs.BYTES, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fixed height 2^8");
        assertThat(ByteSize.format(1536)).isEqualTo("1.5 KiB");
        assertThat(ByteSize.format(3L << 30)).isEqualTo("3.0 GiB");
        assertThat(ByteSize.format(Long.MAX_VALUE)).isEqualTo("unlimited");
    }

    // ------------------------------------------------------------------ replay

    /** The events of the table's passes measured in {@code phase} ({@link ProofPhase#memoryPhase}), in the order they run. */
    private static List<TableMemory.Event> eventsMeasuredIn(TableMemory table, String phase) {
        List<TableMemory.Event> out = new ArrayList<>();
        for (ProofPhase pass : ProofPhase.values()) {
            if (pass.memoryPhase().equals(phase)) {
                out.addAll(table.events(pass));
            }
        }
        return out;
    }

    /** (role, bytes) of each allocation made in {@code phase}, in order. */
    private static List<String> acquires(List<RecordingPolicy.Event> events, String phase) {
        List<String> out = new ArrayList<>();
        for (RecordingPolicy.Event e : events) {
            if (e.acquire() && e.acquiredInPhase().equals(phase)) {
                out.add(e.role() + " " + e.bytes());
            }
        }
        return out;
    }

    private static List<String> acquires(List<TableMemory.Event> events) {
        List<String> out = new ArrayList<>();
        for (TableMemory.Event e : events) {
            if (e instanceof TableMemory.Acquire(Allocation a)) {
                out.add(a.role() + " " + a.bytes());
            }
        }
        return out;
    }

    /** The most bytes live at once of the buffers made in {@code phase}. */
    private static long peak(List<RecordingPolicy.Event> events, String phase) {
        long live = 0;
        long peak = 0;
        for (RecordingPolicy.Event e : events) {
            if (e.acquiredInPhase().equals(phase)) {
                live += e.acquire() ? e.bytes() : -e.bytes();
                peak = Math.max(peak, live);
            }
        }
        return peak;
    }

    private static long peak(List<TableMemory.Event> events) {
        long live = 0;
        long peak = 0;
        for (TableMemory.Event e : events) {
            if (e instanceof TableMemory.Acquire(Allocation a)) {
                live += a.bytes();
            } else if (e instanceof TableMemory.Release(Allocation a)) {
                live -= a.bytes();
            }
            peak = Math.max(peak, live);
        }
        return peak;
    }

    private static Map<MatrixRole, Long> bytesByRole(List<RecordingPolicy.Event> events) {
        Map<MatrixRole, Long> bytes = new EnumMap<>(MatrixRole.class);
        for (RecordingPolicy.Event e : events) {
            if (e.acquire()) {
                bytes.merge(e.role(), e.bytes(), Long::sum);
            }
        }
        return bytes;
    }

    private static boolean released(List<RecordingPolicy.Event> events) {
        Map<Integer, Integer> open = new HashMap<>();
        for (RecordingPolicy.Event e : events) {
            open.merge(e.id(), e.acquire() ? 1 : -1, Integer::sum);
        }
        return open.values().stream().allMatch(v -> v == 0);
    }

    private static MemoryMeter.Phase phase(List<MemoryMeter.Phase> measured, String name) {
        return measured.stream().filter(p -> p.phase().equals(name)).findFirst().orElseThrow();
    }
}
