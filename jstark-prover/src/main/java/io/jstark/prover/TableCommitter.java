package io.jstark.prover;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.hash.Hasher;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ZeroKnowledge;
import java.util.ArrayList;
import java.util.List;

/**
 * What every round of one table's proof shares ({@link TableProver}, {@link CompositionRound}, {@link OodOpening}):
 * the table's shape and settings, and how it allocates, extends and commits its matrices, salted and extended when the
 * proof is zero-knowledge.
 */
final class TableCommitter {
    final TableTrace trace;
    final Air air;
    /** The table as committed: with zero knowledge and buses, with its mask columns ({@link ZeroKnowledge#committedAir}). */
    final Air committedAir;

    final ProofOptions options;
    final ProverSettings settings;
    final HostKernels kernels;
    final Preprocessing.Committed preprocessed;
    final int logN;
    /** log2 of the committed height: logN, or with zero knowledge the taller {@link ZeroKnowledge#committedLogHeight}. */
    final int logCommitted;

    final int logBlowup;
    final TableBuffers buffers;
    /** The coset shift of this table's LDE domain ({@link Preprocessing#shift}). */
    final long shift;
    /** The table's random values in a zero-knowledge proof, else null. */
    final TableRandomness random;

    private final Hasher hasher;

    /**
     * @param buffers what the table's steps allocate ({@link TableBuffers#forProof}: the proof's lifetimes and leaves)
     * @param random the table's random values when the proof is zero-knowledge, else null
     */
    TableCommitter(
            TableTrace trace,
            ProofOptions options,
            Hasher hasher,
            ProverSettings settings,
            HostKernels kernels,
            Preprocessing.Committed preprocessed,
            TableBuffers buffers,
            TableRandomness random) {
        this.trace = trace;
        this.air = trace.air();
        this.committedAir = ZeroKnowledge.committedAir(options, air);
        this.options = options;
        this.hasher = hasher;
        this.settings = settings;
        this.kernels = kernels;
        this.preprocessed = preprocessed;
        this.logN = trace.logHeight();
        this.logBlowup = options.logBlowup();
        this.logCommitted = ZeroKnowledge.committedLogHeight(options, logN);
        this.shift = Preprocessing.shift(logCommitted + logBlowup);
        if (options.zeroKnowledge() && random == null) {
            throw new IllegalArgumentException(
                    "table '" + trace.name() + "': a zero-knowledge proof needs its randomness");
        }
        this.buffers = buffers;
        this.random = random;
    }

    String name() {
        return trace.name();
    }

    /** The preprocessed columns' LDE, or null for a table without them. */
    Matrix preprocessedLde() {
        return preprocessed == null ? null : preprocessed.lde();
    }

    Matrix allocate(TableBuffers.Buffer matrix) {
        return Matrix.allocate(
                settings.storage().allocatorFor(name(), matrix.role()),
                name() + "/" + matrix.what(),
                matrix.matrixRows(),
                matrix.matrixColumns());
    }

    /**
     * The committed LDE: its tree over the rows, in a zero-knowledge proof also over the {@code extra} matrices and the
     * leaves' salts (from the table's {@code phase} stream); on failure {@code lde} and {@code extra} are closed.
     */
    HostCommitment commit(Matrix lde, TableBuffers.Buffer tree, String phase, List<Matrix> extra) {
        BufferAllocator allocator = settings.storage().allocatorFor(name(), tree.role());
        List<Matrix> owned = new ArrayList<>(extra);
        try {
            if (!options.zeroKnowledge()) {
                return new HostCommitment(
                        lde, kernels.commitRows(lde, tree.rowsPerLeaf(), hasher, settings.pool(), allocator));
            }
            owned.add(random.salts(phase, lde.rows(), tree.rowsPerLeaf(), allocator));
            List<Matrix> committed = new ArrayList<>();
            committed.add(lde);
            committed.addAll(owned);
            return new HostCommitment(
                    lde,
                    kernels.commitMatrices(committed, tree.rowsPerLeaf(), hasher, settings.pool(), allocator),
                    owned);
        } catch (RuntimeException | Error e) {
            lde.close();
            owned.forEach(Matrix::close);
            throw e;
        }
    }

    HostCommitment commit(Matrix lde, TableBuffers.Buffer tree, String phase) {
        return commit(lde, tree, phase, List.of());
    }

    /**
     * The columns a phase commits: the trace itself, or with zero knowledge its extended trace ({@link ExtendedTrace},
     * a new matrix the caller closes).
     */
    private Matrix committedColumns(Matrix natural, String phase) {
        if (!options.zeroKnowledge()) {
            return natural;
        }
        return random.extended(
                natural,
                phase,
                settings.storage()
                        .allocatorFor(name(), phase.equals("main") ? MatrixRole.MAIN_LDE : MatrixRole.AUX_TRACE));
    }

    /** Extends the phase's committed columns into {@code lde}. */
    void extend(Matrix natural, String phase, Matrix lde) {
        Matrix columns = committedColumns(natural, phase);
        try {
            kernels.extend(columns, logBlowup, shift, lde, settings.pool());
        } finally {
            if (columns != natural) {
                columns.close();
            }
        }
    }
}
