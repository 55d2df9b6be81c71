package io.jstark.instrument;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a {@link PhaseSequence} made by {@link Spans#phases} and all its split levels share: the recorder, the owning
 * thread, the span they run under, and the instrumentation spans whose records wait for the next boundary's window.
 */
final class PhaseSequenceTree {
    final SpanRecorder recorder;
    final Thread owner;
    /** The span current on the thread when the sequence was made (its span's parent), or null. */
    final LiveSpan enclosing;
    /** Made inside a per-table span: the phases are plain spans, one after the other, nothing sampled. */
    final boolean plain;
    /** Instrumentation spans whose records are made in the next boundary's window, never inside a phase. */
    private final List<Pending> pending = new ArrayList<>();

    /** An instrumentation span made before its end is read, so that after the reading only its end is stored. */
    static final class Pending {
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

    PhaseSequenceTree(SpanRecorder recorder, LiveSpan enclosing) {
        this.recorder = recorder;
        this.owner = Thread.currentThread();
        this.enclosing = enclosing;
        this.plain = enclosing != null && enclosing.insideTable;
    }

    /** An instrumentation span whose end the caller sets; its record is made by the next {@link #flushPending}. */
    Pending addPending(long id, long parentId, long startNanos, Map<String, Object> what) {
        Pending p = new Pending(id, parentId, startNanos, what);
        pending.add(p);
        return p;
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
