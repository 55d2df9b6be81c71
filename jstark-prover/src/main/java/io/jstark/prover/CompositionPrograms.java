package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.protocol.CompositionLayout;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * A table's composition layout and its compiled constraint program, per table definition (as committed) and height,
 * made once per JVM and shared by the memory model (which sizes the interpreter's registers from the program) and
 * by round 2 (which binds the program to each proof's challenges). Both depend only on the definition and the
 * height, and compiling a wide table is not free: Keccak-f's 3,182 constraints take about 12 ms in a warm JVM and
 * 100 ms in a cold one, and a proof needed them up to three times (for its memory plan, once or twice, and in round 2).
 *
 * <p>The definitions are held weakly, compared by identity ({@link Air} is immutable and keeps
 * {@link Object#equals}): a definition no longer used anywhere takes its programs with it, while one held in a static
 * field (the examples') keeps them for the life of the JVM. A definition keeps at most
 * {@link #HEIGHTS_PER_DEFINITION} heights, the least recently used leaving first. The memory plan does not count
 * them (Keccak-f's program takes 3.5 MiB per height).
 */
final class CompositionPrograms {
    /** Heights kept per definition: a process proving one table at many heights keeps the latest ones. */
    static final int HEIGHTS_PER_DEFINITION = 8;

    private static final Map<Air, Map<Integer, Compiled>> BY_DEFINITION =
            Collections.synchronizedMap(new WeakHashMap<>());

    private CompositionPrograms() {}

    /** How a table's constraints combine ({@link CompositionLayout}) and that combination compiled. */
    record Compiled(CompositionLayout layout, ConstraintProgram program) {}

    /**
     * {@return the layout and compiled program of {@code air} at 2^logN rows}, compiled on the first request; while one
     * of a definition's heights compiles, requests for any of its heights wait (a definition's tables ask for their
     * programs at about the same time, and waiting for one compilation beats running it twice)
     *
     * @param air the table as committed ({@link io.jstark.protocol.ZeroKnowledge#committedAir})
     * @param logN log2 of the table's rows
     */
    static Compiled of(Air air, int logN) {
        Map<Integer, Compiled> byHeight = BY_DEFINITION.computeIfAbsent(air, a -> new RecentHeights());
        synchronized (byHeight) {
            Compiled compiled = byHeight.get(logN);
            if (compiled == null) {
                CompositionLayout layout = CompositionLayout.of(air, logN);
                compiled = new Compiled(layout, ConstraintProgram.compile(List.of(layout.expression())));
                byHeight.put(logN, compiled);
            }
            return compiled;
        }
    }

    /** Heights in access order, the least recently used dropped past {@link #HEIGHTS_PER_DEFINITION}. */
    private static final class RecentHeights extends LinkedHashMap<Integer, Compiled> {
        RecentHeights() {
            super(16, 0.75f, true);
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Compiled> eldest) {
            return size() > HEIGHTS_PER_DEFINITION;
        }
    }
}
