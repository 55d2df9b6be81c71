package io.jstark.instrument;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One level of a phase tree recorded by a {@link SpanRecorder}: a span (begun with its first phase) and the
 * phase running under it, a leaf or a split level of its own. See {@link Phases} for the rules; this class keeps
 * them. Every boundary goes through {@link #boundary}: the readings that end phases, the instruments' work, the
 * readings that begin phases, and the instrumentation span between.
 */
final class PhaseSequence implements Phases {
    private static final Object[] NO_FIELDS = {};

    private final PhaseSequenceTree tree;
    private final PhaseSequence outer;
    private final String label;
    private final Object[] keyValues;
    /** This level's span; null until it begins with its first phase. */
    private LiveSpan span;
    /** The phase running at this level: a leaf, or a split level (begun), or neither. */
    private LiveSpan runningLeaf;

    private PhaseSequence runningSplit;
    /** A split phase asked for at this level, which begins with its own first phase. */
    private PhaseSequence pendingSplit;

    private boolean ended;

    private PhaseSequence(PhaseSequenceTree tree, PhaseSequence outer, String label, Object[] keyValues) {
        if (label == null) {
            throw new IllegalArgumentException("phase label must not be null");
        }
        this.tree = tree;
        this.outer = outer;
        this.label = label;
        this.keyValues = keyValues == null ? NO_FIELDS : keyValues;
        if (this.keyValues.length % 2 != 0) {
            FieldValues.putKeyValues(label, this.keyValues, new LinkedHashMap<>()); // throws, naming the label
        }
    }

    /** A sequence under the span current on this thread (none: a root). */
    static PhaseSequence open(SpanRecorder recorder, String label, Object[] keyValues) {
        return new PhaseSequence(new PhaseSequenceTree(recorder, recorder.currentOnThread()), null, label, keyValues);
    }

    @Override
    public void next(String phaseLabel) {
        next(phaseLabel, NO_FIELDS);
    }

    @Override
    public void next(String phaseLabel, Object... phaseFields) {
        checkUsable(phaseLabel);
        if (phaseLabel == null) {
            throw new IllegalArgumentException("phase label must not be null");
        }
        if (phaseFields != null && phaseFields.length % 2 != 0) {
            FieldValues.putKeyValues(phaseLabel, phaseFields, new LinkedHashMap<>()); // throws, naming the label
        }
        discardPendingSplit();
        // this level and the split levels above it that have not begun yet begin now, outermost first
        List<PhaseSequence> beginning = new ArrayList<>();
        PhaseSequence begun = this;
        while (begun != null && begun.span == null) {
            if (begun.outer != null && begun.outer.pendingSplit != begun) {
                throw new IllegalStateException("phase '" + phaseLabel + "' cannot begin: the split phase '"
                        + begun.label + "' it belongs to was superseded before it began");
            }
            beginning.addFirst(begun);
            begun = begun.outer;
        }
        if (begun != null && begun.ended) {
            throw new IllegalStateException(
                    "phase '" + phaseLabel + "' cannot begin: the phase sequence of '" + begun.label + "' has ended");
        }
        List<PhaseSequence> endingLevels = new ArrayList<>();
        List<LiveSpan> ending = new ArrayList<>();
        if (begun != null) {
            begun.collectRunning(ending, endingLevels);
        }
        LiveSpan leaf = boundary(
                ending,
                null,
                begun == null ? tree.enclosing : begun.span,
                beginning,
                phaseLabel,
                phaseFields == null ? NO_FIELDS : phaseFields);
        for (PhaseSequence level : endingLevels) {
            level.ended = true;
        }
        // the new chain: begun -> beginning... -> leaf
        PhaseSequence above = begun;
        for (PhaseSequence level : beginning) {
            if (above != null) {
                above.runningSplit = level;
                above.runningLeaf = null;
                above.pendingSplit = null;
            }
            above = level;
        }
        above.runningSplit = null;
        above.runningLeaf = leaf;
    }

    @Override
    public Phases nextSplit(String phaseLabel, Object... phaseFields) {
        checkUsable(phaseLabel);
        discardPendingSplit();
        pendingSplit = new PhaseSequence(tree, this, phaseLabel, phaseFields);
        return pendingSplit;
    }

    @Override
    public void close() {
        if (ended) {
            return;
        }
        checkThread(label);
        ended = true;
        discardPendingSplit();
        if (span == null) { // never begun: nothing was recorded
            if (outer != null && outer.pendingSplit == this) {
                outer.pendingSplit = null;
            }
            return;
        }
        if (outer != null) {
            // a split phase ends at the next boundary of the level above, with the phase running in it: ending
            // it here would take readings of its own and leave the interval up to that boundary in no phase
            return;
        }
        List<LiveSpan> ending = new ArrayList<>();
        List<PhaseSequence> endingLevels = new ArrayList<>();
        collectRunning(ending, endingLevels);
        boundary(ending, span, null, List.of(), null, NO_FIELDS);
        for (PhaseSequence level : endingLevels) {
            level.ended = true;
        }
        tree.flushPending(); // after the sequence's last reading
    }

    /** The spans running under this level, innermost first, and the split levels they belong to. */
    private void collectRunning(List<LiveSpan> spans, List<PhaseSequence> levels) {
        if (runningSplit != null) {
            runningSplit.collectRunning(spans, levels);
            spans.add(runningSplit.span);
            levels.add(runningSplit);
        } else if (runningLeaf != null) {
            spans.add(runningLeaf);
        }
    }

    /**
     * Ends {@code ending} (innermost first) and {@code endingRoot} (the sequence's own span, when it closes), and
     * begins the {@code beginning} levels (outermost first) and a leaf (when {@code leafLabel} is not null) under
     * {@code parent}, sharing the clock readings: the ending phases' CPU clocks, then the wall clock (their end);
     * the instruments' work; the wall clock (the beginning phases' start), then their CPU clocks. The interval
     * between the two wall readings becomes an instrumentation span. The sequence's own span begins at the first
     * reading of its opening boundary and ends at the last reading of its closing one, reading its CPU clocks just
     * inside them: its opening and closing work are its first and last instrumentation spans.
     */
    private LiveSpan boundary(
            List<LiveSpan> ending,
            LiveSpan endingRoot,
            LiveSpan parent,
            List<PhaseSequence> beginning,
            String leafLabel,
            Object[] leafFields) {
        SpanRecorder recorder = tree.recorder;
        if (tree.plain) {
            return plainBoundary(ending, endingRoot, parent, beginning, leafLabel, leafFields);
        }
        long threadCpuEnd = -1;
        long processCpuEnd = -1;
        if (!ending.isEmpty()) {
            threadCpuEnd = recorder.threadCpuNow();
            processCpuEnd = recorder.processCpuNow();
        }
        long windowStart = recorder.nanosSinceOrigin();
        boolean rootBegins = !beginning.isEmpty() && beginning.getFirst().outer == null;
        long rootProcessCpuStart = rootBegins ? recorder.processCpuNow() : -1;
        long rootThreadCpuStart = rootBegins ? recorder.threadCpuNow() : -1;
        // ---- from here to windowEnd: the instruments' own work
        tree.flushPending();
        MemorySampler memory = recorder.memorySampler();
        Window window = new Window(memory, memory == null ? null : memory.sample(), recorder.capture());
        List<String> endedLabels = endAll(ending, endingRoot, windowStart, threadCpuEnd, processCpuEnd, window);
        List<LiveSpan> begun = beginAll(beginning, parent, leafLabel, leafFields, window);
        if (begun.isEmpty()) {
            recorder.currentOnThread(); // leaves the thread's current span alone unless it was one of those ended here
        } else {
            recorder.setCurrent(begun.getLast());
        }
        window.describe(endedLabels, begun);
        LiveSpan instrumentationParent = rootBegins ? begun.getFirst() : endingRoot != null ? endingRoot : parent;
        PhaseSequenceTree.Pending instrumentation =
                tree.addPending(recorder.nextId(), instrumentationParent.id(), windowStart, window.what);
        long rootThreadCpuEnd = endingRoot == null ? -1 : recorder.threadCpuNow();
        long rootProcessCpuEnd = endingRoot == null ? -1 : recorder.processCpuNow();
        long windowEnd = recorder.nanosSinceOrigin();
        // ---- the beginning phases' start; their CPU windows open inside their wall windows
        if (!begun.isEmpty()) {
            long processCpuStart = recorder.processCpuNow();
            long threadCpuStart = recorder.threadCpuNow();
            for (int i = 0; i < begun.size(); i++) {
                if (rootBegins && i == 0) {
                    begun.getFirst().startAt(windowStart, rootProcessCpuStart, rootThreadCpuStart);
                } else {
                    begun.get(i).startAt(windowEnd, processCpuStart, threadCpuStart);
                }
            }
        }
        instrumentation.endNanos = windowEnd;
        if (endingRoot != null) {
            endingRoot.record(windowEnd, rootThreadCpuEnd, rootProcessCpuEnd);
        }
        return leafLabel == null ? null : begun.getLast();
    }

    /**
     * What a boundary's instruments share while they work: the one memory sample, the JFR capture, and the fields of
     * the instrumentation span that records the window.
     */
    private record Window(MemorySampler memory, long[] sample, JfrCapture capture, Map<String, Object> what) {
        Window(MemorySampler memory, long[] sample, JfrCapture capture) {
            this(memory, sample, capture, new LinkedHashMap<>());
        }

        /** Names the phases the boundary ended and began in its instrumentation span. */
        void describe(List<String> endedLabels, List<LiveSpan> begun) {
            if (!endedLabels.isEmpty()) {
                what.put("ends", String.join(", ", endedLabels));
            }
            if (!begun.isEmpty()) {
                List<String> begunLabels = new ArrayList<>(begun.size());
                for (LiveSpan s : begun) {
                    begunLabels.add(s.label());
                }
                what.put("begins", String.join(", ", begunLabels));
            }
        }
    }

    /** Ends {@code ending} at the readings taken and {@code endingRoot} in the window; returns their labels. */
    private static List<String> endAll(
            List<LiveSpan> ending,
            LiveSpan endingRoot,
            long windowStart,
            long threadCpuEnd,
            long processCpuEnd,
            Window window) {
        List<String> endedLabels = new ArrayList<>(ending.size() + 1);
        for (LiveSpan s : ending) {
            s.endAt(windowStart, threadCpuEnd, processCpuEnd, window.memory, window.sample);
            endedLabels.add(s.label());
            stopCaptureOf(s, window);
        }
        if (endingRoot != null) {
            endingRoot.endInWindow(window.memory, window.sample); // its record follows the last reading
            endedLabels.add(endingRoot.label());
            stopCaptureOf(endingRoot, window);
        }
        return endedLabels;
    }

    /** Begins the {@code beginning} levels, outermost first, and the leaf (when labelled) under {@code parent}. */
    private List<LiveSpan> beginAll(
            List<PhaseSequence> beginning, LiveSpan parent, String leafLabel, Object[] leafFields, Window window) {
        List<LiveSpan> begun = new ArrayList<>(beginning.size() + 1);
        LiveSpan up = parent;
        for (PhaseSequence level : beginning) {
            up = begin(level.label, level.keyValues, true, up, window);
            level.span = up;
            begun.add(up);
        }
        if (leafLabel != null) {
            begun.add(begin(leafLabel, leafFields, false, up, window));
        }
        return begun;
    }

    private static void stopCaptureOf(LiveSpan span, Window window) {
        JfrCapture capture = window.capture;
        if (capture != null && capture.isOwner(span)) {
            capture.finish(span);
            window.what.put(SpanLabels.JFR_CAPTURE_FIELD, "stopped after " + span.label());
        }
    }

    private LiveSpan begin(String phaseLabel, Object[] phaseFields, boolean split, LiveSpan parent, Window window) {
        SpanRecorder recorder = tree.recorder;
        JfrCapture capture = window.capture;
        Map<String, Object> fields = new LinkedHashMap<>();
        FieldValues.putKeyValues(phaseLabel, phaseFields, fields);
        if (split) {
            fields.put(SpanLabels.TILED_BY_PHASES_FIELD, true);
        }
        if (window.sample != null) {
            window.memory.put(window.sample, true, fields);
        }
        // the capture starts before the phase's own JFR event begins, so that the file holds it
        boolean capturing = capture != null && capture.wouldStart(phaseLabel) && capture.tryStart(phaseLabel);
        if (capturing) {
            window.what.put(SpanLabels.JFR_CAPTURE_FIELD, "started for " + phaseLabel);
        }
        LiveSpan s = new LiveSpan(recorder, recorder.nextId(), parent, phaseLabel, parent, true, fields);
        if (capturing) {
            capture.own(s);
        }
        return s;
    }

    /** Inside a per-table span: the phases are ordinary spans, each with its own readings. */
    private LiveSpan plainBoundary(
            List<LiveSpan> ending,
            LiveSpan endingRoot,
            LiveSpan parent,
            List<PhaseSequence> beginning,
            String leafLabel,
            Object[] leafFields) {
        SpanRecorder recorder = tree.recorder;
        for (LiveSpan s : ending) {
            s.close();
        }
        if (endingRoot != null) {
            endingRoot.close();
        }
        LiveSpan up = parent;
        for (PhaseSequence level : beginning) {
            up = recorder.openPlain(level.label, level.keyValues, up);
            level.span = up;
        }
        return leafLabel == null ? null : recorder.openPlain(leafLabel, leafFields, up);
    }

    private void discardPendingSplit() {
        if (pendingSplit != null) {
            pendingSplit.ended = true;
            pendingSplit = null;
        }
    }

    private void checkUsable(String phaseLabel) {
        checkThread(phaseLabel);
        if (ended) {
            throw new IllegalStateException("phase '" + phaseLabel + "' cannot follow: the phase sequence of '" + label
                    + "' has ended" + (span == null ? " (it never began)" : ""));
        }
    }

    private void checkThread(String phaseLabel) {
        if (Thread.currentThread() != tree.owner) {
            throw new IllegalStateException("phase '" + phaseLabel + "': the phase sequence of '" + label
                    + "' belongs to thread '" + tree.owner.getName() + "', not '"
                    + Thread.currentThread().getName() + "'");
        }
    }
}
