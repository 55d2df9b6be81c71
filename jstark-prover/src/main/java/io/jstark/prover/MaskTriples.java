package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.logup.MaskRing;
import java.util.List;

/**
 * The prover's side of the mask ring ({@link MaskRing}): each table's triple, drawn from its (table, main, mask)
 * stream, and which table each table with buses receives from.
 */
final class MaskTriples {
    private MaskTriples() {}

    /** {@return table j's triple t_j} */
    static long[] of(ZkRandomness randomness, int table) {
        long[] triple = new long[MaskRing.COLUMNS];
        randomness.stream(table, "main", ZkRandomness.Purpose.MASK).fill(triple, 0, triple.length);
        return triple;
    }

    /**
     * {@return per table the table with buses it receives from: the previous table with buses in index order, the
     * first's the last (a single one its own); -1 for a table without buses}
     *
     * @param airs the tables' definitions, in the proof's order
     */
    static int[] previous(List<Air> airs) {
        int[] previous = new int[airs.size()];
        int last = -1;
        for (int j = 0; j < airs.size(); j++) {
            previous[j] = -1;
            if (airs.get(j).auxWidth() > 0) {
                previous[j] = last;
                last = j;
            }
        }
        for (int j = 0; j < airs.size(); j++) {
            if (previous[j] == -1 && airs.get(j).auxWidth() > 0) {
                // the first table with buses receives from the last
                previous[j] = last;
            }
        }
        return previous;
    }
}
