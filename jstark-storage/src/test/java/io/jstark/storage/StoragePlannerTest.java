package io.jstark.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.TableTrace;
import io.jstark.instrument.ByteSize;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.MatrixRole;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.prover.memory.TableMemory;
import io.jstark.storage.memory.HeapRule;
import io.jstark.storage.memory.JvmFootprint;
import io.jstark.storage.memory.MemoryModel;
import io.jstark.storage.memory.MemoryPrediction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoragePlannerTest {
    static final ProofOptions OPTIONS = new ProofOptions(3, 8, 0, 2, 2, "sha256", 0);
    static final int K = 2;
    static final int THREADS = 2;

    @TempDir
    Path spillDir;

    private List<TableTrace> traces;
    private List<TableDimensions> tables;

    @BeforeEach
    void workload() {
        traces = StorageTestAirs.workload(12);
        tables = StorageTestAirs.dimensions(traces);
    }

    @AfterEach
    void close() {
        StorageTestAirs.close(traces);
    }

    /** The phase of the out-of-domain openings: per-table steps only. */
    private static final String OOD = "ood";

    private StorageOptions auto(long budget) {
        return StorageOptions.defaults().withMemoryBudget(budget).withSpillDirectory(spillDir);
    }

    private MemoryPrediction inRam() {
        return new MemoryModel(OPTIONS, THREADS).predict(tables, K, Long.MAX_VALUE, Placement.RAM);
    }

    /** All in RAM, one chain at a time: below this the gate cannot help, something must spill. */
    private MemoryPrediction oneAtATime() {
        return new MemoryModel(OPTIONS, THREADS).predict(tables, 1, Long.MAX_VALUE, Placement.RAM);
    }

    @Test
    void whatFitsStaysInRam() {
        long budget = (long) (inRam().peakRamBytes() / 0.9) + (1 << 20);
        StoragePlan plan = StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(budget));
        assertThat(plan.spillsAnything()).isFalse();
        assertThat(plan.prediction().peakRamBytes())
                .isEqualTo(inRam().peakRamBytes())
                .isLessThanOrEqualTo(plan.ramLimitBytes());
        assertThat(plan.ramLimitBytes()).isEqualTo((long) Math.floor(budget * 0.9));
        for (TableDimensions t : tables) {
            for (MatrixRole role : MatrixRole.values()) {
                assertThat(plan.spills(t.name(), role)).isFalse();
            }
        }
        try (Storage storage = plan.open()) {
            assertThat(storage.spillAllocator()).isNull();
        }
        assertThat(plan.lines().getFirst()).contains("RAM (the prediction fits the budget)");
    }

    private static List<String> spilledUnits(StoragePlan plan, List<TableDimensions> tables) {
        List<String> units = new java.util.ArrayList<>();
        for (TableDimensions t : tables) {
            for (MatrixRole role : MatrixRole.values()) {
                if (plan.spills(t.name(), role)) {
                    units.add(t.name() + "/" + role);
                }
            }
        }
        return units;
    }

    @Test
    void aSlightlyTightBudgetSpillsOneSmallBufferRoleNotTheLargestLde() {
        MemoryPrediction ram = oneAtATime();
        MemoryModel model = new MemoryModel(OPTIONS, THREADS);
        // the tables as the proof describes them (a table's leaves and the global buffers depend on the others)
        List<TableMemory> memories = model.tables(tables);
        long mainLde = memories.getFirst().allocatedBytes(MatrixRole.MAIN_LDE);
        long budget = (long) ((ram.peakRamBytes() - mainLde / 8) / 0.9);
        StoragePlan plan = StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(budget));
        List<String> units = spilledUnits(plan, tables);
        assertThat(units).hasSize(1);
        String[] unit = units.getFirst().split("/");
        long spilledBytes = memories.stream()
                .filter(t -> t.name().equals(unit[0]))
                .findFirst()
                .orElseThrow()
                .allocatedBytes(MatrixRole.valueOf(unit[1]));
        assertThat(spilledBytes).isLessThan(mainLde).isGreaterThanOrEqualTo(mainLde / 8);
        assertThat(plan.prediction().peakRamBytes()).isLessThanOrEqualTo(plan.ramLimitBytes());
    }

    @Test
    void aTightBudgetSpillsTheHeldLdesFirstAndKeepsTheRestInRam() {
        MemoryPrediction ram = oneAtATime();
        List<TableMemory> memories = new MemoryModel(OPTIONS, THREADS).tables(tables);
        long mainLde = memories.getFirst().allocatedBytes(MatrixRole.MAIN_LDE);
        long largestUnit = memories.stream()
                .flatMap(t -> t.allocatedBytesByRole().values().stream())
                .mapToLong(Long::longValue)
                .max()
                .orElseThrow();
        // more than any one buffer role can shed
        long budget = (long) ((ram.peakRamBytes() - largestUnit - mainLde / 4) / 0.9);
        StoragePlan plan = StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(budget));
        assertThat(plan.spills("wide", MatrixRole.MAIN_LDE)).isTrue();
        assertThat(plan.prediction().peakRamBytes()).isLessThanOrEqualTo(plan.ramLimitBytes());
        List<String> units = spilledUnits(plan, tables);
        assertThat(units.size()).isGreaterThan(1).isLessThan(tables.size() * MatrixRole.values().length / 2);
        assertThat(plan.prediction().peakSpillBytes()).isGreaterThan(mainLde);
        assertThat(plan.lines().getFirst()).contains("spill");
    }

    @Test
    void aBudgetThatFitsOneTableAtATimeSpillsNothingAndTheGateKeepsTheLargestPassesApart() {
        long oneAtATime = oneAtATime().peakRamBytes();
        MemoryPrediction together = inRam();
        // the proof's peak is in a global step (every LDE and tree held, one phase tree or the FRI running): k does not
        // move it, but in a phase of per-table steps alone (the out-of-domain openings) k tables together take more
        // than one
        assertThat(together.peakRamBytes()).isEqualTo(oneAtATime);
        assertThat(together.phase(OOD).ram())
                .isGreaterThan(oneAtATime().phase(OOD).ram());
        long budget = (long) (oneAtATime / 0.9) + (1 << 20);
        StoragePlan plan = StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(budget));
        assertThat(plan.spillsAnything()).isFalse();
        assertThat(plan.prediction().peakRamBytes()).isLessThanOrEqualTo(plan.ramLimitBytes());
        // the gate's budget is too small for the two largest passes together: those run one at a time
        long[] passes = plan.prediction().tables().stream()
                .mapToLong(t -> t.later().ram())
                .sorted()
                .toArray();
        assertThat(plan.gateBudgetBytes()).isLessThan(passes[passes.length - 1] + passes[passes.length - 2]);
    }

    @Test
    void aBudgetBelowTheMinimumIsRefusedWithTheBudgetThatWorks() {
        InsufficientMemoryException refused = org.junit.jupiter.api.Assertions.assertThrows(
                InsufficientMemoryException.class,
                () -> StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(1 << 20)));
        assertThat(refused)
                .hasMessageContaining("--memory-budget")
                .hasMessageContaining("JSTARK_MEMORY_BUDGET")
                .hasMessageContaining("even with every table buffer spilled");
        long needed = refused.neededBytes();
        assertThat(needed).isGreaterThan(1 << 20);
        // the figure it names is enough, and not by much
        StoragePlan plan = StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(needed));
        assertThat(plan.prediction().peakRamBytes()).isLessThanOrEqualTo(plan.ramLimitBytes());
        assertThat(plan.prediction().peakSpillBytes()).isPositive();
        // the smallest in whole MiB: one MiB less is refused, naming the same budget
        assertThat(needed % (1 << 20)).isZero();
        InsufficientMemoryException below = org.junit.jupiter.api.Assertions.assertThrows(
                InsufficientMemoryException.class,
                () -> StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(needed - (1 << 20))));
        assertThat(below.neededBytes()).isEqualTo(needed);
        assertThat(refused).hasMessageContaining("--memory-budget " + (needed >> 20) + "M");
    }

    /**
     * Where the launcher sizes a fixed heap from the budget (scripts/heap.sh's rule, passed to the JVM), the named
     * budget is the smallest whose own heap, by that rule, plans: the same from any refused budget, planning there
     * with the heap the launcher would give it, refused one MiB below. Budgets from below the heap's floor to just
     * under the minimum (64M must not name a budget that is itself refused, nor 128M one 200 MiB too high).
     */
    @Test
    void theNamedBudgetIsTheSmallestThatPlansWithTheLaunchersHeap() {
        long mib = 1 << 20;
        HeapRule rule = new HeapRule(3, 8, 64);
        JvmFootprint measuredAt = new JvmFootprint(64 * mib, true, true, 50 * mib, 20 * mib, rule);
        long named = org.junit.jupiter.api.Assertions.assertThrows(
                        InsufficientMemoryException.class,
                        () -> StoragePlanner.plan(
                                tables, OPTIONS, K, THREADS, auto(16 * mib), measuredAt.atBudget(16 * mib)))
                .neededBytes();
        assertThat(named).isGreaterThan(128 * mib);
        for (long given : new long[] {64 * mib, 128 * mib, named - mib}) {
            JvmFootprint jvm = measuredAt.atBudget(given);
            InsufficientMemoryException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    InsufficientMemoryException.class,
                    () -> StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(given), jvm),
                    "budget " + given);
            assertThat(refused.neededBytes())
                    .as("named from %d MiB", given >> 20)
                    .isEqualTo(named);
            assertThat(refused)
                    .hasMessageContaining("the smallest budget that plans with the JVM as measured now is "
                            + ByteSize.asOption(named))
                    .hasMessageContaining("3/8 of the budget");
        }
        long minimum = named;
        StoragePlan plan =
                StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(minimum), measuredAt.atBudget(minimum));
        assertThat(plan.prediction().peakResidentInUseBytes()).isLessThanOrEqualTo(plan.ramLimitBytes());
        long below = minimum - mib;
        assertThatThrownBy(
                        () -> StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(below), measuredAt.atBudget(below)))
                .isInstanceOf(InsufficientMemoryException.class);
        // the room named for the JVM's varying native memory: a quarter of it again, planning there
        InsufficientMemoryException refused = org.junit.jupiter.api.Assertions.assertThrows(
                InsufficientMemoryException.class,
                () -> StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(below), measuredAt.atBudget(below)));
        java.util.regex.Matcher room = java.util.regex.Pattern.compile(
                        "Give it --memory-budget (\\d+)M \\(JSTARK_MEMORY_BUDGET=\\d+M\\): "
                                + "that leaves a quarter of the JVM's native memory again")
                .matcher(refused.getMessage());
        assertThat(room.find()).as(refused.getMessage()).isTrue();
        long roomy = Long.parseLong(room.group(1)) * mib;
        assertThat(roomy).isGreaterThan(minimum);
        JvmFootprint moreNative = measuredAt.withNativeBytes(50 * mib + 50 * mib / 4);
        StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(roomy), moreNative.atBudget(roomy));
    }

    @Test
    void forcedModesPlaceEverythingAndSayWhenRamDoesNotFit() {
        long small = oneAtATime().peakRamBytes() / 2;
        StoragePlan ram =
                StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(small).withMode(StorageMode.RAM));
        assertThat(ram.spillsAnything()).isFalse();
        assertThat(ram.notes()).anySatisfy(n -> assertThat(n).startsWith("WARNING: storage forced to RAM"));
        StoragePlan disk = StoragePlanner.plan(
                tables, OPTIONS, K, THREADS, auto(ByteSize.UNLIMITED).withMode(StorageMode.DISK));
        for (TableDimensions t : tables) {
            for (MatrixRole role : MatrixRole.values()) {
                assertThat(disk.spills(t.name(), role)).isTrue();
            }
        }
        MemoryPrediction p = disk.prediction();
        for (MemoryPrediction.PhasePeak phase : p.phases().subList(1, p.phases().size())) {
            assertThat(phase.ramOffHeap()).as(phase.phase()).isEqualTo(p.inputBytes() + p.provingKeyBytes());
        }
        assertThat(disk.notes()).anySatisfy(n -> assertThat(n).contains("physical memory"));
    }

    @Test
    void theGateBudgetIsWhatIsLeftBesideEverythingHeldAcrossTables() {
        long budget = 1L << 30;
        StoragePlan plan = StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(budget));
        MemoryPrediction p = plan.prediction();
        long held = p.tables().stream()
                .mapToLong(MemoryPrediction.TableLine::heldRam)
                .sum();
        assertThat(plan.gateBudgetBytes())
                .isEqualTo(plan.ramLimitBytes() - p.inputBytes() - p.provingKeyBytes() - p.heapCacheBytes() - held);
        assertThat(p.gateBudget()).isEqualTo(plan.gateBudgetBytes());
    }

    @Test
    void spillDirectoryProblemsAreFoundWhenPlanning() throws Exception {
        StorageOptions disk = auto(ByteSize.UNLIMITED).withMode(StorageMode.DISK);
        assertThatThrownBy(() -> StoragePlanner.plan(
                        tables, OPTIONS, K, THREADS, disk.withSpillDirectory(spillDir.resolve("missing"))))
                .isInstanceOf(SpillDirectoryException.class)
                .hasMessageContaining("does not exist");
        Path mount = Files.createDirectory(spillDir.resolve("tiny"));
        try (Tmpfs tmpfs = Tmpfs.mount(mount, "size=1m")) {
            assertThatThrownBy(() -> StoragePlanner.plan(tables, OPTIONS, K, THREADS, disk.withSpillDirectory(mount)))
                    .isInstanceOf(SpillSpaceException.class)
                    .hasMessageContaining("spilling needs")
                    .hasMessageContaining("tmpfs")
                    .hasMessageContaining("--spill-dir");
        }
        Path roomy = Files.createDirectory(spillDir.resolve("roomy"));
        try (Tmpfs tmpfs = Tmpfs.mount(roomy, "size=256m")) {
            StoragePlan plan = StoragePlanner.plan(tables, OPTIONS, K, THREADS, disk.withSpillDirectory(roomy));
            assertThat(plan.notes()).anySatisfy(n -> assertThat(n).contains("is on tmpfs"));
        }
    }

    /**
     * With the JVM counted (a budget for the whole process, as in a memory cgroup), the pages of spilled buffers that
     * running tables' steps use count beside the anonymous ones: the gate admits tables by both, the plan fits both
     * within the limit for any k, and the refusal names the minimum with them and the JVM.
     */
    @Test
    void withTheJvmCountedTheSpilledPagesInUseCountAndTheMinimumIncludesThem() {
        long mib = 1 << 20;
        JvmFootprint jvm = new JvmFootprint(64 * mib, true, true, 50 * mib, 20 * mib);
        InsufficientMemoryException refused = org.junit.jupiter.api.Assertions.assertThrows(
                InsufficientMemoryException.class,
                () -> StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(128 * mib), jvm));
        assertThat(refused)
                .hasMessageContaining("pages of the spilled buffers its steps use at once")
                .hasMessageContaining("JVM native 50.0 MiB")
                .hasMessageContaining("JVM files 20.0 MiB");
        // the minimum: one table at a time with everything spilled, its pages in use and the JVM's files included
        MemoryModel model = new MemoryModel(OPTIONS, THREADS, jvm);
        MemoryPrediction alone = model.predict(tables, 1, Long.MAX_VALUE, Placement.DISK);
        assertThat(alone.peakResidentWindowBytes()).isGreaterThan(20 * mib);
        assertThat(alone.peakResidentInUseBytes()).isGreaterThan(alone.peakRamBytes());
        long needed = (long) Math.ceil(Math.min(
                        alone.peakResidentInUseBytes(),
                        model.predict(tables, 1, Long.MAX_VALUE, Placement.RAM).peakResidentInUseBytes())
                / 0.9);
        assertThat(refused.neededBytes()).isGreaterThanOrEqualTo(needed);
        for (int k : new int[] {1, K, 4}) {
            StoragePlan plan = StoragePlanner.plan(tables, OPTIONS, k, THREADS, auto(needed), jvm);
            MemoryPrediction p = plan.prediction();
            assertThat(p.peakResidentInUseBytes()).as("k = %d", k).isLessThanOrEqualTo(plan.ramLimitBytes());
            for (MemoryPrediction.PhasePeak phase : p.phases()) {
                assertThat(phase.residentInUse()).isEqualTo(phase.residentAnonymous() + phase.residentWindow());
            }
            long held = p.tables().stream()
                    .mapToLong(MemoryPrediction.TableLine::heldRam)
                    .sum();
            // the JVM's files stay resident beside the anonymous pages and the spilled windows, spilled or not
            long files = 20 * mib;
            assertThat(plan.gateBudgetBytes())
                    .as("k = %d", k)
                    .isEqualTo(plan.ramLimitBytes()
                            - p.inputBytes()
                            - p.provingKeyBytes()
                            - 64 * mib
                            - 50 * mib
                            - files
                            - held);
        }
        // without the JVM counted the plan bounds the buffers alone: no pages in use are added
        assertThat(StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(needed))
                        .prediction()
                        .peakResidentWindowBytes())
                .isZero();
    }

    @Test
    void aFixedHeapAndTheJvmCountAgainstTheBudget() {
        long mib = 1 << 20;
        JvmFootprint jvm = new JvmFootprint(256 * mib, true, true, 100 * mib, 20 * mib);
        // off-heap, the fixed heap, the JVM's native memory and its files (resident throughout)
        long budget = (long) ((inRam().peakOffHeapBytes() + 376 * mib) / 0.9) + mib;
        StoragePlan plan = StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(budget), jvm);
        MemoryPrediction p = plan.prediction();
        for (MemoryPrediction.PhasePeak phase : p.phases()) {
            // resident anonymous: off-heap + the whole fixed heap + the JVM's native memory; file-backed: spill + the
            // JVM's files
            assertThat(phase.residentAnonymous())
                    .as(phase.phase())
                    .isEqualTo(phase.ramOffHeap() + 256 * mib + 100 * mib);
            assertThat(phase.residentFile()).as(phase.phase()).isEqualTo(phase.spill() + 20 * mib);
        }
        assertThat(p.peakRamBytes()).isLessThanOrEqualTo(plan.ramLimitBytes());
        assertThat(plan.lines()).anySatisfy(l -> assertThat(l).startsWith("JVM: heap -Xmx 256.0 MiB fixed"));
        // a fixed heap smaller than the predicted heap is refused, naming the heap and the budget that gives it
        JvmFootprint tiny = new JvmFootprint(1024, true, true, 0, 0);
        InsufficientMemoryException byHand = org.junit.jupiter.api.Assertions.assertThrows(
                InsufficientMemoryException.class,
                () -> StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(budget), tiny));
        // a heap fixed by hand: a larger budget would not change it, so no budget is named, only the heap
        assertThat(byHand)
                .hasMessageContaining("of heap")
                .hasMessageContaining("fixed at 1.0 KiB")
                .hasMessageContaining("-Xmx")
                .hasMessageNotContaining("give it --memory-budget");
        assertThat(byHand.neededBytes()).isEqualTo(-1);
        // a launcher whose heap is 1/16 of the budget: a budget that holds the buffers gives too small a heap; the
        // budget
        // named gives a heap that holds the heap caches and scratch, and plans
        JvmFootprint ruled = new JvmFootprint(0, true, true, 0, 0, new HeapRule(1, 16, 1)).atBudget(20 * mib);
        assertThat(ruled.maxHeapBytes()).isEqualTo(2 * mib); // 1 MiB by the rule, aligned as the collector aligns it
        InsufficientMemoryException byRule = org.junit.jupiter.api.Assertions.assertThrows(
                InsufficientMemoryException.class,
                () -> StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(20 * mib), ruled));
        assertThat(byRule).hasMessageContaining("of heap");
        long named = byRule.neededBytes();
        assertThat(ruled.atBudget(named).maxHeapBytes()).isGreaterThanOrEqualTo(inRam().peakHeapBytes());
        assertThatThrownBy(() -> StoragePlanner.plan(
                        tables, OPTIONS, K, THREADS, auto(named - mib), ruled.atBudget(named - mib)))
                .isInstanceOf(InsufficientMemoryException.class)
                .hasMessageContaining("of heap");
        assertThat(byRule).hasMessageContaining("give it --memory-budget " + ByteSize.asOption(byRule.neededBytes()));
        StoragePlanner.plan(
                tables, OPTIONS, K, THREADS, auto(byRule.neededBytes()), ruled.atBudget(byRule.neededBytes()));
    }

    /**
     * A heap fixed by hand (no launcher rule) too small for the heap caches and scratch, under a budget too small for
     * the rest as well: the heap is named first (a larger budget would not help it), with the heap as it is, not
     * "No budget up to 1.0 PiB plans it" nor "heap fixed at" the caches' size.
     */
    @Test
    void aHeapFixedByHandIsNamedFirst() {
        JvmFootprint tiny = new JvmFootprint(1 << 20, true, true, 0, 0);
        InsufficientMemoryException refused = org.junit.jupiter.api.Assertions.assertThrows(
                InsufficientMemoryException.class,
                () -> StoragePlanner.plan(tables, OPTIONS, 1, THREADS, auto(1 << 20), tiny));
        assertThat(refused)
                .hasMessageContaining("of heap")
                .hasMessageContaining("fixed at 1.0 MiB")
                .hasMessageContaining("-Xmx")
                .hasMessageNotContaining("No budget up to");
        assertThat(refused.neededBytes()).isEqualTo(-1);
    }

    /**
     * A launcher rule the heap does not follow (JSTARK_JAVA_OPTS replaced the heap scripts/jstark derived): no budget is
     * named on the rule's word, since a larger budget leaves that heap as it is; what is named plans with the heap as it is.
     */
    @Test
    void aRuleTheHeapDoesNotFollowIsNotUsed() {
        long mib = 1 << 20;
        long budget = 1L << 30;
        JvmFootprint byHand = new JvmFootprint(mib, true, true, 50 * mib, 20 * mib, new HeapRule(3, 8, 64));
        InsufficientMemoryException refused = org.junit.jupiter.api.Assertions.assertThrows(
                InsufficientMemoryException.class,
                () -> StoragePlanner.plan(tables, OPTIONS, 1, THREADS, auto(budget), byHand));
        assertThat(refused)
                .hasMessageNotContaining("give it --memory-budget")
                .hasMessageNotContaining("scripts/jstark gives");
        assertThat(refused.neededBytes()).isEqualTo(-1);
    }

    /** From a refused budget near the top of a long (8000000T passes the launcher), the search ends without overflow. */
    @Test
    void theSearchFromAHugeRefusedBudgetEnds() {
        long refused = 8_000_000L << 40;
        assertThat(PlanRefusal.smallestBudget(
                        refused,
                        new PlacementSearch.Workload(
                                tables,
                                OPTIONS,
                                1,
                                THREADS,
                                io.jstark.prover.ProverBackend.cpu().describe(tables, OPTIONS, THREADS)),
                        auto(refused),
                        JvmFootprint.NONE))
                .isEqualTo(-1);
    }

    @Test
    void aHeapThatMayGrowPastTheBudgetIsAWarning() {
        long mib = 1 << 20;
        long budget = (long) (inRam().peakRamBytes() / 0.9) + mib;
        MemoryPrediction p =
                StoragePlanner.plan(tables, OPTIONS, K, THREADS, auto(budget)).prediction();
        JvmFootprint growing = new JvmFootprint(16L << 30, false, false, 0, 0);
        assertThat(StoragePlanner.heapWarnings(p, 16L << 30, growing, budget, true, auto(budget)))
                .anySatisfy(
                        w -> assertThat(w).contains("may grow to -Xmx 16.0 GiB").contains("-Xms = -Xmx"));
        assertThat(StoragePlanner.heapWarnings(p, 16L << 30, growing, budget, false, auto(budget)))
                .isEmpty();
        assertThat(StoragePlanner.heapWarnings(p, 1024, growing, budget, false, auto(budget)))
                .anySatisfy(w -> assertThat(w).contains("close to or above the heap live objects can use"));
    }

    @Test
    void theSpillDirectoryDefaultsToTheTempDirectory() {
        assertThat(StorageOptions.defaults().resolvedSpillDirectory())
                .isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
    }
}
