package io.jstark.profile.analysis;

import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parent structure of one run's spans, shared by every analysis.
 *
 * <p>A span's <b>path</b> is the labels from its root down to it, joined by {@value #SEPARATOR}
 * ({@code prove/round2/constraints_table}). A span whose parent id is absent from the timeline is treated
 * as a root here (and reported by {@link TimelineChecks}).
 *
 * <p>A <b>caller-thread</b> span is a root, or a span on the same thread as its caller-thread parent, where
 * neither is a per-table span (label suffix {@value SpanLabels#TABLE_SUFFIX}). The chain stops at a per-table
 * span even when a sequential executor runs it on the caller thread.
 *
 * <p>A <b>sub-operation</b> label is one that occurs inside a per-table span anywhere in the timeline (lde,
 * merkle, constraint_evaluation...): the label of work done for one table, possibly many at once. A
 * <b>phase</b> span is a caller-thread span that is neither a per-table span nor a sub-operation: phases run
 * one at a time on the calling thread and wrap all the concurrent work below them, and their phase children
 * are meant to tile them (the sum rule). A sub-operation the caller thread runs itself (the LDE of a
 * preprocessed table inside {@code preprocessed_commit}) is work inside a phase, not a phase. The
 * {@value SpanLabels#INSTRUMENTATION} spans between phases are phases by this rule: they take their share of the
 * parent like any phase.
 *
 * <p>A span <b>tiled by phases</b> is one that a phase sequence split into phases (field
 * {@value SpanLabels#TILED_BY_PHASES_FIELD}): its phases and instrumentation spans tile it exactly.
 */
public final class SpanTree {
    public static final String SEPARATOR = "/";

    private final List<SpanRecord> spans;
    private final Map<Long, SpanRecord> byId = new HashMap<>();
    private final Map<Long, List<SpanRecord>> children = new HashMap<>();
    private final Map<Long, String> pathById = new HashMap<>();
    private final Map<Long, Boolean> callerThreadById = new HashMap<>();
    private final Map<String, String> parentPath = new HashMap<>();
    private final Map<String, Integer> depth = new HashMap<>();
    private final Map<String, List<SpanRecord>> instancesByPath = new LinkedHashMap<>();
    private final List<SpanRecord> roots = new ArrayList<>();
    private final Map<Long, Boolean> insideTableById = new HashMap<>();
    private final java.util.Set<String> subOperationLabels = new java.util.LinkedHashSet<>();

    private SpanTree(List<SpanRecord> spans) {
        List<SpanRecord> sorted = new ArrayList<>(spans);
        sorted.sort(Comparator.comparingLong(SpanRecord::startNanos).thenComparingLong(SpanRecord::id));
        this.spans = Collections.unmodifiableList(sorted);
        for (SpanRecord span : sorted) {
            if (byId.putIfAbsent(span.id(), span) != null) {
                throw new IllegalArgumentException("timeline has two spans with id " + span.id());
            }
        }
        for (SpanRecord span : sorted) {
            SpanRecord parent = parentOf(span);
            if (parent == null) {
                roots.add(span);
            } else {
                children.computeIfAbsent(parent.id(), id -> new ArrayList<>()).add(span);
            }
        }
        // walk down from the roots so that parents are resolved before children (and cycles are never entered)
        List<SpanRecord> pending = new ArrayList<>(roots);
        while (!pending.isEmpty()) {
            SpanRecord span = pending.removeLast();
            SpanRecord parent = parentOf(span);
            String path = parent == null ? span.label() : pathById.get(parent.id()) + SEPARATOR + span.label();
            pathById.put(span.id(), path);
            callerThreadById.put(
                    span.id(),
                    parent == null
                            || (callerThreadById.get(parent.id())
                                    && parent.threadId() == span.threadId()
                                    && !isTableLabel(parent.label())
                                    && !isTableLabel(span.label())));
            boolean insideTable = parent != null && (insideTableById.get(parent.id()) || isTableLabel(parent.label()));
            insideTableById.put(span.id(), insideTable);
            if (!depth.containsKey(path)) {
                depth.put(path, parent == null ? 0 : depth.get(pathById.get(parent.id())) + 1);
                if (parent != null) {
                    parentPath.put(path, pathById.get(parent.id()));
                }
            }
            pending.addAll(children.getOrDefault(span.id(), List.of()));
        }
        for (SpanRecord span : sorted) {
            String path = pathById.get(span.id());
            if (path == null) {
                throw new IllegalArgumentException(
                        "span " + span.id() + " '" + span.label() + "' is on a parent cycle and reaches no root");
            }
            instancesByPath.computeIfAbsent(path, p -> new ArrayList<>()).add(span);
            if (insideTableById.get(span.id()) && !isTableLabel(span.label())) {
                subOperationLabels.add(span.label());
            }
        }
    }

    /** Whether the label names per-table instance spans (suffix {@value SpanLabels#TABLE_SUFFIX}). */
    public static boolean isTableLabel(String label) {
        return SpanLabels.isTableLabel(label);
    }

    /** The instruments' own work at a phase boundary. */
    public static boolean isInstrumentation(SpanRecord span) {
        return span.label().equals(SpanLabels.INSTRUMENTATION);
    }

    /** Split into phases by a phase sequence, which then tile it exactly (see the class comment). */
    public static boolean isTiledByPhases(SpanRecord span) {
        return Boolean.TRUE.equals(span.fields().get(SpanLabels.TILED_BY_PHASES_FIELD));
    }

    /**
     * What tiles a span split into phases: its direct children on its own thread that are not per-table spans
     * (its phases and the instrumentation spans between them), by start.
     */
    public List<SpanRecord> tilesOf(SpanRecord span) {
        List<SpanRecord> tiles = new ArrayList<>();
        for (SpanRecord child : childrenOf(span.id())) {
            if (child.threadId() == span.threadId() && !isTableLabel(child.label())) {
                tiles.add(child);
            }
        }
        return tiles;
    }

    public static SpanTree of(List<SpanRecord> spans) {
        return new SpanTree(spans);
    }

    /** All spans, ordered by start then id. */
    public List<SpanRecord> spans() {
        return spans;
    }

    /** Spans without a parent in this timeline, ordered by start. */
    public List<SpanRecord> roots() {
        return Collections.unmodifiableList(roots);
    }

    /** The span's parent, or null for a root or when the parent is missing from the timeline. */
    public SpanRecord parentOf(SpanRecord span) {
        return span.parentId() == 0 ? null : byId.get(span.parentId());
    }

    public SpanRecord byId(long id) {
        return byId.get(id);
    }

    /** Direct children of a span, ordered by start. */
    public List<SpanRecord> childrenOf(long spanId) {
        return Collections.unmodifiableList(children.getOrDefault(spanId, List.of()));
    }

    /** The span and every span below it, ordered by start then id. */
    public List<SpanRecord> subtreeOf(SpanRecord top) {
        List<SpanRecord> out = new ArrayList<>();
        List<SpanRecord> pending = new ArrayList<>(List.of(top));
        while (!pending.isEmpty()) {
            SpanRecord span = pending.removeLast();
            out.add(span);
            pending.addAll(childrenOf(span.id()));
        }
        out.sort(Comparator.comparingLong(SpanRecord::startNanos).thenComparingLong(SpanRecord::id));
        return out;
    }

    /** Whether {@code span} is {@code ancestor} or lies below it. */
    public boolean isWithin(SpanRecord span, SpanRecord ancestor) {
        for (SpanRecord up = span; up != null; up = parentOf(up)) {
            if (up.id() == ancestor.id()) {
                return true;
            }
        }
        return false;
    }

    public String pathOf(SpanRecord span) {
        return pathById.get(span.id());
    }

    public boolean isCallerThread(SpanRecord span) {
        return callerThreadById.get(span.id());
    }

    /** Whether a per-table span encloses this span (the span itself not counted). */
    public boolean isInsideTable(SpanRecord span) {
        return insideTableById.get(span.id());
    }

    /** Labels that occur inside a per-table span, in order of first start. */
    public java.util.Set<String> subOperationLabels() {
        return Collections.unmodifiableSet(subOperationLabels);
    }

    /** A caller-thread span that is neither a per-table span nor a sub-operation (see the class comment). */
    public boolean isPhase(SpanRecord span) {
        return isCallerThread(span) && !isTableLabel(span.label()) && !subOperationLabels.contains(span.label());
    }

    /** Every distinct path, in order of first start. */
    public List<String> paths() {
        return List.copyOf(instancesByPath.keySet());
    }

    /** Every distinct path depth-first: each path followed by its child paths, siblings by first start. */
    public List<String> pathsDepthFirst() {
        Map<String, List<String>> childPaths = new LinkedHashMap<>();
        List<String> rootPaths = new ArrayList<>();
        for (String path : instancesByPath.keySet()) {
            String parent = parentPath.get(path);
            if (parent == null) {
                rootPaths.add(path);
            } else {
                childPaths.computeIfAbsent(parent, p -> new ArrayList<>()).add(path);
            }
        }
        List<String> out = new ArrayList<>();
        List<String> pending = new ArrayList<>(rootPaths.reversed());
        while (!pending.isEmpty()) {
            String path = pending.removeLast();
            out.add(path);
            pending.addAll(childPaths.getOrDefault(path, List.of()).reversed());
        }
        return out;
    }

    /** The instances of a path, ordered by start; empty for an unknown path. */
    public List<SpanRecord> instancesOf(String path) {
        return Collections.unmodifiableList(instancesByPath.getOrDefault(path, List.of()));
    }

    /** The path one level up, or null for a root path. */
    public String parentPathOf(String path) {
        return parentPath.get(path);
    }

    /** The root path above {@code path} (itself for a root path). */
    public String rootPathOf(String path) {
        String current = path;
        for (String up = parentPath.get(current); up != null; up = parentPath.get(current)) {
            current = up;
        }
        return current;
    }

    /** 0 for a root path. */
    public int depthOf(String path) {
        Integer d = depth.get(path);
        if (d == null) {
            throw new IllegalArgumentException("no span has path '" + path + "'");
        }
        return d;
    }

    /** Direct child paths of {@code path}, by first start. */
    public List<String> childPathsOf(String path) {
        List<String> out = new ArrayList<>();
        for (String candidate : instancesByPath.keySet()) {
            if (path.equals(parentPath.get(candidate))) {
                out.add(candidate);
            }
        }
        return out;
    }
}
