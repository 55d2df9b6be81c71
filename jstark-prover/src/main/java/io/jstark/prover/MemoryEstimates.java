package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.protocol.ProofOptions;

/**
 * Bytes a table's tasks allocate, counted from the matrices and trees the prover makes (the memory gate
 * admits tables by these figures).
 */
public final class MemoryEstimates {
    private MemoryEstimates() {}

    /** Main commit: the main LDE and its tree (both kept), plus the LDE's scratch. */
    public static long mainCommitBytes(TableTrace trace, ProofOptions options, int parallelism) {
        Air air = trace.air();
        long bigN = (long) trace.height() << options.logBlowup();
        return Matrix.bytesFor(bigN, air.mainWidth()) + MerkleTree.bytesFor(bigN / options.foldingFactor())
                + Lde.extendScratchBytes(trace.height(), air.mainWidth(), options.logBlowup(), parallelism);
    }

    /** The fused chain's peak: aux trace and LDE, composition buffers and LDE, DEEP, FRI layers and trees. */
    public static long chainBytes(TableTrace trace, ProofOptions options, int parallelism) {
        Air air = trace.air();
        int n = trace.height();
        long bigN = (long) n << options.logBlowup();
        long leaves = bigN / options.foldingFactor();
        int auxColumns = 3 * air.auxWidth();
        int parts = air.compositionParts(trace.logHeight());
        long bytes = 0;
        if (auxColumns > 0) {
            bytes += Matrix.bytesFor(n, auxColumns) + Matrix.bytesFor(bigN, auxColumns) + MerkleTree.bytesFor(leaves);
        }
        bytes += Matrix.bytesFor(bigN, 3) + Matrix.bytesFor(n, 3L * parts) + Matrix.bytesFor(bigN, 3L * parts) + MerkleTree.bytesFor(leaves);
        bytes += Matrix.bytesFor(bigN, 3);
        long layer = bigN;
        while (layer > options.foldingFactor()) {
            layer /= options.foldingFactor();
            bytes += Matrix.bytesFor(layer, 3) + MerkleTree.bytesFor(Math.max(1, layer / options.foldingFactor()));
        }
        return bytes + Lde.interpolateScratchBytes((int) bigN, 3, parallelism);
    }
}
