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

    /** What a sequence made by {@link Spans#phases} and all its split levels share. */
    private static final class Tree {
        final SpanRecorder recorder;
        final Thread owner;
        /** The span current on the thread when the sequence was made (its span's parent), or null. */
        final LiveSpan enclosing;
        /** Made inside a per-table span: the phases are plain spans, one after the other, nothing sampled. */
        final boolean plain;
        /** Instrumentation spans whose records are made in the next boundary's window, never inside a phase. */
        final List<Pending> pending = new ArrayList<>();

        Tree(SpanRecorder recorder, LiveSpan enclosing) {
            this.recorder = recorder;
            this.owner = Thread.currentThread();
            this.enclosing = enclosing;
            this.plain = enclosing != null && enclosing.insideTable;
        }

        void flushPending() {
            for (Pending p : pending) {
                recorder.finished(new SpanRecord(
                        p.id,
                        p.parentId,
                        SpanLabels.INSTRUMENTATION,
                        owner.getName(),
                        owner.threadId(),
                        p.startNanos,
                        p.endNanos,
                        -1,
                        -1,
                        p.what));
            }
            pending.clear();
        }
    }

    /** An instrumentation span made before its end is read, so that after the reading only its end is stored. */
    private static final class Pending {
        final long id;
        final long parentId;
        final long startNanos;
        final Map<String, Object> what;
        long endNanos;

        Pending(long id, long parentId, long startNanos, Map<String, Object> what) {
            this.id = id;
            this.parentId = parentId;
            this.startNanos = startNanos;
            this.what = what;
        }
    }

    private final Tree tree;
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

    private PhaseSequence(Tree tree, PhaseSequence outer, String label, Object[] keyValues) {
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
        return new PhaseSequence(new Tree(recorder, recorder.currentOnThread()), null, label, keyValues);
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
        long[] sample = memory == null ? null : memory.sample();
        Map<String, Object> what = new LinkedHashMap<>();
        JfrCapture capture = recorder.capture();
        List<String> endedLabels = new ArrayList<>(ending.size() + 1);
        for (LiveSpan s : ending) {
            s.endAt(windowStart, threadCpuEnd, processCpuEnd, memory, sample);
            endedLabels.add(s.label());
            stopCaptureOf(s, capture, what);
        }
        if (endingRoot != null) {
            endingRoot.endInWindow(memory, sample); // its record follows the last reading
            endedLabels.add(endingRoot.label());
            stopCaptureOf(endingRoot, capture, what);
        }
        List<LiveSpan> begun = new ArrayList<>(beginning.size() + 1);
        LiveSpan up = parent;
        for (PhaseSequence level : beginning) {
            up = begin(level.label, level.keyValues, true, up, memory, sample, capture, what);
            level.span = up;
            begun.add(up);
        }
        LiveSpan leaf = null;
        if (leafLabel != null) {
            leaf = begin(leafLabel, leafFields, false, up, memory, sample, capture, what);
            begun.add(leaf);
        }
        if (begun.isEmpty()) {
            recorder.currentOnThread(); // leaves the thread's current span alone unless it was one of those ended here
        } else {
            recorder.setCurrent(begun.getLast());
        }
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
        LiveSpan instrumentationParent = rootBegins ? begun.getFirst() : endingRoot != null ? endingRoot : parent;
        Pending instrumentation = new Pending(recorder.nextId(), instrumentationParent.id(), windowStart, what);
        tree.pending.add(instrumentation);
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
        return leaf;
    }

    private static void stopCaptureOf(LiveSpan span, JfrCapture capture, Map<String, Object> what) {
        if (capture != null && capture.isOwner(span)) {
            capture.finish(span);
            what.put(SpanLabels.JFR_CAPTURE_FIELD, "stopped after " + span.label());
        }
    }

    private LiveSpan begin(
            String phaseLabel,
            Object[] phaseFields,
            boolean split,
            LiveSpan parent,
            MemorySampler memory,
            long[] sample,
            JfrCapture capture,
            Map<String, Object> what) {
        SpanRecorder recorder = tree.recorder;
        Map<String, Object> fields = new LinkedHashMap<>();
        FieldValues.putKeyValues(phaseLabel, phaseFields, fields);
        if (split) {
            fields.put(SpanLabels.TILED_BY_PHASES_FIELD, true);
        }
        if (sample != null) {
            memory.put(sample, true, fields);
        }
        // the capture starts before the phase's own JFR event begins, so that the file holds it
        boolean capturing = capture != null && capture.wouldStart(phaseLabel) && capture.tryStart(phaseLabel);
        if (capturing) {
            what.put(SpanLabels.JFR_CAPTURE_FIELD, "started for " + phaseLabel);
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
