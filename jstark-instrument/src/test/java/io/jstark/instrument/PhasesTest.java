package io.jstark.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PhasesTest {
    private SpanRecorder recorder = new SpanRecorder(null, MemorySampler.heapOnly());

    @AfterEach
    void stopRecording() {
        Spans.stop(recorder);
    }

    private static SpanRecord byLabel(List<SpanRecord> records, String label) {
        return records.stream().filter(r -> r.label().equals(label)).findFirst().orElseThrow();
    }

    private static List<SpanRecord> childrenOf(List<SpanRecord> records, SpanRecord parent) {
        List<SpanRecord> children = new ArrayList<>(
                records.stream().filter(r -> r.parentId() == parent.id()).toList());
        children.sort(Comparator.comparingLong(SpanRecord::startNanos).thenComparingLong(SpanRecord::endNanos));
        return children;
    }

    /** The children begin where the parent begins, each where the one before ends, and the last ends with it. */
    static void assertTiles(List<SpanRecord> records, SpanRecord parent) {
        List<SpanRecord> children = childrenOf(records, parent);
        assertThat(children).as("children of %s", parent.label()).isNotEmpty();
        long at = parent.startNanos();
        long sum = 0;
        for (SpanRecord child : children) {
            assertThat(child.startNanos())
                    .as("start of %s under %s", child.label(), parent.label())
                    .isEqualTo(at);
            at = child.endNanos();
            sum += child.durationNanos();
        }
        assertThat(at).as("end of the last child of %s", parent.label()).isEqualTo(parent.endNanos());
        assertThat(sum).isEqualTo(parent.durationNanos());
    }

    private static void work(long nanos) {
        long until = System.nanoTime() + nanos;
        long sink = 0;
        while (System.nanoTime() < until) {
            sink += Long.bitCount(sink ^ System.nanoTime());
        }
        assertThat(sink).isNotNegative();
    }

    @Test
    void phasesAndTheInstrumentationBetweenThemTileTheirParentExactly() {
        Spans.start(recorder);
        try (Phases prove = Spans.phases("prove", "tables", 3)) {
            Phases prepass = prove.nextSplit("prepass");
            prepass.next("check_statement");
            work(200_000);
            prepass.next("preprocessed_commit");
            try (Span _ = Spans.open("lde")) {
                work(200_000);
            }
            prepass.next("absorb_statement");
            prove.next("main_commit");
            work(200_000);
            prove.next("assemble");
        }
        List<SpanRecord> records = recorder.records();
        SpanRecord prove = byLabel(records, "prove");
        SpanRecord prepass = byLabel(records, "prepass");
        assertThat(childrenOf(records, prove))
                .extracting(SpanRecord::label)
                .containsExactly(
                        "instrumentation",
                        "prepass",
                        "instrumentation",
                        "main_commit",
                        "instrumentation",
                        "assemble",
                        "instrumentation");
        assertThat(childrenOf(records, prepass))
                .extracting(SpanRecord::label)
                .containsExactly(
                        "check_statement",
                        "instrumentation",
                        "preprocessed_commit",
                        "instrumentation",
                        "absorb_statement");
        assertTiles(records, prove);
        assertTiles(records, prepass);
        // the sequence's span encloses its opening and closing boundaries; a split phase begins with its first phase
        // and ends with its last
        List<SpanRecord> proveChildren = childrenOf(records, prove);
        assertThat(proveChildren.getFirst().fields()).containsEntry("begins", "prove, prepass, check_statement");
        assertThat(proveChildren.getLast().fields()).containsEntry("ends", "assemble, prove");
        assertThat(prepass.startNanos())
                .isEqualTo(byLabel(records, "check_statement").startNanos())
                .isEqualTo(proveChildren.getFirst().endNanos());
        assertThat(prepass.endNanos())
                .isEqualTo(byLabel(records, "absorb_statement").endNanos());
        assertThat(byLabel(records, "assemble").endNanos())
                .isEqualTo(proveChildren.getLast().startNanos());
        // the split spans say so, the leaves do not; the boundaries say what they separate
        assertThat(prove.fields()).containsEntry("tables", 3L).containsEntry(SpanLabels.TILED_BY_PHASES_FIELD, true);
        assertThat(prepass.fields()).containsEntry(SpanLabels.TILED_BY_PHASES_FIELD, true);
        assertThat(byLabel(records, "main_commit").fields()).doesNotContainKey(SpanLabels.TILED_BY_PHASES_FIELD);
        SpanRecord beforeMain = childrenOf(records, prove).get(2);
        assertThat(beforeMain.fields())
                .containsEntry("ends", "absorb_statement, prepass")
                .containsEntry("begins", "main_commit");
        assertThat(byLabel(records, "lde").parentId())
                .isEqualTo(byLabel(records, "preprocessed_commit").id());
        assertThat(Spans.current()).isSameAs(NoopSpan.INSTANCE);
    }

    @Test
    void aSlowMemorySamplerCostsTheInstrumentationRowsAndNothingElse() {
        // every sample sleeps 5 ms: in the old design that time fell between the phases
        List<long[]> sleeps = new CopyOnWriteArrayList<>();
        recorder = new SpanRecorder(null, MemorySampler.of(new MemorySampler.Figure("slow", () -> {
            long from = System.nanoTime() - recorder.originNanos();
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sleeps.add(new long[] {from, System.nanoTime() - recorder.originNanos()});
            return 1L;
        })));
        Spans.start(recorder);
        try (Span outer = Spans.open("outer")) {
            try (Phases prove = Spans.phases("prove")) {
                Phases prepass = prove.nextSplit("prepass");
                prepass.next("check_statement");
                prepass.next("absorb_statement");
                prove.next("main_commit");
                prove.next("assemble");
            }
            assertThat(outer.id()).isPositive();
        }
        List<SpanRecord> records = recorder.records();
        SpanRecord prove = byLabel(records, "prove");
        assertTiles(records, prove);
        assertTiles(records, byLabel(records, "prepass"));
        // made inside a span or not, the sequence's opening and closing work are instrumentation spans of its own
        assertThat(childrenOf(records, byLabel(records, "outer")))
                .extracting(SpanRecord::label)
                .containsExactly("prove");
        List<SpanRecord> instrumentation = records.stream()
                .filter(r -> r.label().equals(SpanLabels.INSTRUMENTATION))
                .toList();
        assertThat(sleeps).hasSize(5).hasSameSizeAs(instrumentation); // one sample per boundary: open, 3 inside, close
        for (long[] sleep : sleeps) {
            assertThat(instrumentation)
                    .as("an instrumentation span around the sample [%d, %d]", sleep[0], sleep[1])
                    .anySatisfy(i -> assertThat(i.startNanos() <= sleep[0] && sleep[1] <= i.endNanos())
                            .isTrue());
        }
        assertThat(instrumentation)
                .allSatisfy(i -> assertThat(i.startNanos() >= prove.startNanos() && i.endNanos() <= prove.endNanos())
                        .as("inside prove")
                        .isTrue());
        assertThat(instrumentation.stream().mapToLong(SpanRecord::durationNanos).sum())
                .isGreaterThanOrEqualTo(5 * 5_000_000L);
    }

    @Test
    void eachPhaseReadsItsCpuClocksInsideItsWallWindow() {
        Spans.start(recorder);
        try (Phases prove = Spans.phases("prove")) {
            prove.next("busy");
            work(10_000_000);
            prove.next("short");
        }
        for (SpanRecord r : recorder.records()) {
            if (r.label().equals(SpanLabels.INSTRUMENTATION)) {
                assertThat(r.processCpuNanos()).isEqualTo(-1);
                continue;
            }
            assertThat(r.processCpuNanos()).as(r.label()).isNotNegative();
            // the thread's window lies inside the process's, which includes this thread's own time exactly
            assertThat(r.processCpuNanos()).as(r.label()).isGreaterThanOrEqualTo(r.cpuNanos());
            assertThat(r.cpuNanos()).as(r.label()).isNotNegative().isLessThanOrEqualTo(r.durationNanos() + 1_000_000);
        }
        assertThat(byLabel(recorder.records(), "busy").cpuNanos()).isPositive();
    }

    @Test
    void theRunningPhaseIsTheParentOfWorkHandedToOtherThreads() throws Exception {
        Spans.start(recorder);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (Phases prove = Spans.phases("prove")) {
            prove.next("main_commit");
            Span phase = Spans.current();
            Thread driver = new Thread(
                    () -> {
                        try (Span _ = Spans.openChild(phase, "main_commit_table", "table", "t")) {
                            assertThat(Spans.current().id()).isNotEqualTo(phase.id());
                        } catch (Throwable t) {
                            failure.set(t);
                        }
                    },
                    "driver-0");
            driver.start();
            driver.join();
            phase.close(); // a phase is ended by its sequence, never by its span
            assertThat(Spans.current().id()).isEqualTo(phase.id());
        }
        assertThat(failure.get()).isNull();
        List<SpanRecord> records = recorder.records();
        assertThat(byLabel(records, "main_commit_table").parentId())
                .isEqualTo(byLabel(records, "main_commit").id());
        assertThat(records).extracting(SpanRecord::label).containsOnlyOnce("main_commit");
    }

    @Test
    void anExceptionEndsEveryPhaseAtOneReading() {
        Spans.start(recorder);
        assertThatThrownBy(() -> {
                    try (Phases prove = Spans.phases("prove")) {
                        Phases prepass = prove.nextSplit("prepass");
                        prepass.next("check_statement");
                        throw new IllegalStateException("bad statement");
                    }
                })
                .hasMessage("bad statement");
        List<SpanRecord> records = recorder.records();
        assertThat(records)
                .extracting(SpanRecord::label)
                .containsExactlyInAnyOrder("prove", "instrumentation", "prepass", "check_statement", "instrumentation");
        assertTiles(records, byLabel(records, "prove"));
        assertThat(byLabel(records, "prepass").endNanos())
                .isEqualTo(byLabel(records, "check_statement").endNanos());
        assertThat(Spans.current()).isSameAs(NoopSpan.INSTANCE);
    }

    @Test
    void misuseIsRefusedNamingThePhases() throws Exception {
        Spans.start(recorder);
        try (Phases prove = Spans.phases("prove")) {
            Phases first = prove.nextSplit("first");
            Phases second = prove.nextSplit("second"); // supersedes first before it began
            assertThatThrownBy(() -> first.next("a"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'first'");
            second.next("b");
            prove.next("c"); // ends b and second
            assertThatThrownBy(() -> second.next("d"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'second'");
            AtomicReference<Throwable> elsewhere = new AtomicReference<>();
            Thread other = new Thread(
                    () -> {
                        try {
                            prove.next("e");
                        } catch (Throwable t) {
                            elsewhere.set(t);
                        }
                    },
                    "other");
            other.start();
            other.join();
            assertThat(elsewhere.get())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'other'");
            assertThatThrownBy(() -> prove.next("f", "odd"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("f");
            Phases third = prove.nextSplit("third");
            third.next("g");
            third.close(); // g and third run on until prove moves on
            assertThatThrownBy(() -> third.next("h"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'third'");
        }
        assertThat(recorder.records()).extracting(SpanRecord::label).doesNotContain("first", "a", "d", "e", "f", "h");
        assertTiles(recorder.records(), byLabel(recorder.records(), "prove"));
        assertThat(byLabel(recorder.records(), "third").endNanos())
                .isEqualTo(byLabel(recorder.records(), "prove").endNanos()
                        - childrenOf(recorder.records(), byLabel(recorder.records(), "prove"))
                                .getLast()
                                .durationNanos());
    }

    @Test
    void theCaptureStartsAndStopsInTheBoundariesAroundItsPhase(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("capture.jfr");
        recorder = new SpanRecorder(new CaptureRequest("round3", file, null), MemorySampler.heapOnly());
        Spans.start(recorder);
        try (Phases prove = Spans.phases("prove")) {
            prove.next("round2");
            assertThat(recorder.isCapturing()).isFalse();
            prove.next("round3");
            assertThat(recorder.isCapturing()).isTrue();
            try (Span inner = Spans.open("ood", "points", 2)) {
                assertThat(inner.id()).isNotZero();
            }
            prove.next("round4");
            assertThat(recorder.isCapturing()).isFalse();
        }
        List<SpanRecord> records = recorder.records();
        SpanRecord prove = byLabel(records, "prove");
        assertTiles(records, prove);
        List<SpanRecord> children = childrenOf(records, prove);
        assertThat(children)
                .extracting(SpanRecord::label)
                .containsExactly(
                        "instrumentation",
                        "round2",
                        "instrumentation",
                        "round3",
                        "instrumentation",
                        "round4",
                        "instrumentation");
        assertThat(children.get(2).fields()).containsEntry(SpanLabels.JFR_CAPTURE_FIELD, "started for round3");
        assertThat(children.get(4).fields()).containsEntry(SpanLabels.JFR_CAPTURE_FIELD, "stopped after round3");
        assertThat(recorder.capturedFile()).contains(file.toAbsolutePath());
        List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals(SpanEvent.NAME))
                .toList();
        assertThat(events).extracting(e -> e.getString("label")).containsExactlyInAnyOrder("round3", "ood");
    }

    @Test
    void nothingIsRecordedOrAllocatedWhileNoRecorderIsActive() {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        Object[] fields = {"tables", 3};
        long sink = 0;
        for (int warm = 0; warm < 1000; warm++) {
            try (Phases p = Spans.phases("prove", fields)) {
                p.nextSplit("prepass").next("check");
                p.next("main", fields);
            }
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            try (Phases p = Spans.phases("prove", fields)) {
                p.nextSplit("prepass", fields).next("check");
                p.next("main");
                sink += Spans.current().id();
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(sink).isZero();
        assertThat(allocated).isLessThan(16 * 1024);
        assertThat(Spans.phases("prove")).isSameAs(NoopPhases.INSTANCE);
    }

    /**
     * StarkProver's own calls build their arguments on every proof: an eight-element varargs array with a boxed
     * count of proofs, the prepass's empty and two-element arrays. The disabled path adds nothing to them, so a proof
     * allocates at most those, never anything per phase or inside the instruments (measured on JDK 25: 112 bytes per
     * proof while interpreted, 0 once the JIT compiled the loop and removed them).
     */
    @Test
    void withNothingRecordingTheProversCallShapeAllocatesAtMostItsOwnArguments() {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        Object options = new Object(); // passed as it is: its text is made only while recording
        int proofs = 100_000;
        long sink = 0;
        for (int round = 0; round < 2; round++) { // round 0 warms up
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < proofs; i++) {
                try (Phases prove = Spans.phases(
                        SpanLabels.PROVE,
                        "tables",
                        i % 7,
                        "options",
                        options,
                        SpanLabels.PROOFS_COMPLETED_BEFORE_FIELD,
                        1000L + i,
                        SpanLabels.PROOFS_RUNNING_AT_START_FIELD,
                        0L)) {
                    Phases prepass = prove.nextSplit(SpanLabels.PREPASS);
                    prepass.next(SpanLabels.CHECK_STATEMENT, "tables", i % 7);
                    prepass.next(SpanLabels.ABSORB_STATEMENT);
                    prove.next(SpanLabels.MAIN_COMMIT);
                    prove.next(SpanLabels.ASSEMBLE);
                    sink += Spans.current().id();
                }
            }
            long perProof = (threads.getCurrentThreadAllocatedBytes() - before) / proofs;
            if (round == 1) {
                assertThat(perProof).as("bytes per proof").isLessThanOrEqualTo(128);
            }
        }
        assertThat(sink).isZero();
    }
}
