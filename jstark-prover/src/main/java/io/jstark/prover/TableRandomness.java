package io.jstark.prover;

import io.jstark.air.logup.MaskRing;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ZeroKnowledge;

/**
 * The random values one table of a zero-knowledge proof commits, each from its own stream of the proof's randomness:
 * its extended trace's rows ({@link ExtendedTrace}), its mask ring triples ({@link MaskTriples}), its leaves' salts
 * ({@link LeafSalts}), its composition's blinders ({@link CompositionChunks}) and, for the first tallest table, the
 * random codeword ({@link RandomCodeword}).
 */
final class TableRandomness {
    private final ZkRandomness randomness;
    private final ProofOptions options;
    private final String table;
    private final int index;
    private final int logCommitted;
    private final int maskPrevious;
    private final boolean holdsCodeword;

    /**
     * @param randomness the proof's randomness
     * @param options the proof's options (zero knowledge)
     * @param table the table's name (its buffers' labels)
     * @param index the table's index in the statement (its streams are keyed by it)
     * @param logN log2 of the table's rows
     * @param maskPrevious with buses, the table it receives its mask triple from ({@link MaskTriples#previous}), else -1
     * @param holdsCodeword whether its composition commitment holds the random codeword
     */
    TableRandomness(
            ZkRandomness randomness,
            ProofOptions options,
            String table,
            int index,
            int logN,
            int maskPrevious,
            boolean holdsCodeword) {
        this.randomness = randomness;
        this.options = options;
        this.table = table;
        this.index = index;
        this.logCommitted = ZeroKnowledge.committedLogHeight(options, logN);
        this.maskPrevious = maskPrevious;
        this.holdsCodeword = holdsCodeword;
    }

    /** {@return the phase's extended trace (with the mask columns for main when the table has buses), the caller's to close} */
    Matrix extended(Matrix natural, String phase, BufferAllocator allocator) {
        long[][] appended = phase.equals("main") && maskPrevious >= 0 ? maskColumns() : new long[0][];
        return ExtendedTrace.of(
                natural,
                appended,
                logCommitted,
                randomness.stream(index, phase, ZkRandomness.Purpose.EXTENSION),
                allocator,
                table + "/" + phase + "-extended");
    }

    /** The mask columns' first rows: the triple this table sends (row 0) and the one it receives (row 1). */
    private long[][] maskColumns() {
        long[] sent = MaskTriples.of(randomness, index);
        long[] received = MaskTriples.of(randomness, maskPrevious);
        long[][] columns = new long[sent.length][];
        for (int k = 0; k < columns.length; k++) {
            columns[k] = new long[] {sent[k], received[k]};
        }
        return columns;
    }

    /**
     * The mask ring: the running sum (aux extension column {@code runningSumColumn}) started at the mask offset
     * 1/f(t_j) - 1/f(t_prev) ({@link MaskRing#offset}), so that it ends at the masked claim; returns the claim.
     */
    Ext3 maskRunningSum(Matrix auxNatural, int runningSumColumn, Ext3 busSum, Ext3[] lookup) {
        Ext3 offset =
                MaskRing.offset(lookup, MaskTriples.of(randomness, index), MaskTriples.of(randomness, maskPrevious));
        int column = 3 * runningSumColumn;
        long[] limbs = {offset.c0(), offset.c1(), offset.c2()};
        long[] values = new long[auxNatural.rows()];
        for (int limb = 0; limb < 3; limb++) {
            auxNatural.readColumn(column + limb, 0, values, 0, values.length);
            for (int r = 0; r < values.length; r++) {
                values[r] = Goldilocks.add(values[r], limbs[limb]);
            }
            auxNatural.writeColumn(column + limb, 0, values, 0, values.length);
        }
        return busSum.add(offset);
    }

    /** {@return the salt matrix of a phase's LDE of {@code rows} rows committed {@code rowsPerLeaf} rows per leaf} */
    Matrix salts(String phase, int rows, int rowsPerLeaf, BufferAllocator allocator) {
        return LeafSalts.draw(
                randomness.stream(index, phase, ZkRandomness.Purpose.SALT),
                rows,
                ZeroKnowledge.saltColumns(options, rowsPerLeaf),
                allocator,
                table + "/" + phase + "-salt");
    }

    /** Writes the composition's blinded parts from its coefficients ({@link CompositionChunks#write}). */
    void blindParts(Matrix coefficients, Matrix parts, int logN) {
        CompositionChunks.write(
                coefficients,
                (int) ZeroKnowledge.compositionPartWidth(options, logN),
                ZeroKnowledge.margin(options),
                randomness.stream(index, "composition", ZkRandomness.Purpose.BLINDER),
                parts);
    }

    /** {@return whether this table's composition commitment holds the random codeword} */
    boolean holdsCodeword() {
        return holdsCodeword;
    }

    /** {@return the random codeword's coefficients, the caller's to close} */
    Matrix codewordCoefficients(BufferAllocator allocator) {
        return RandomCodeword.coefficients(randomness, logCommitted, allocator);
    }
}
