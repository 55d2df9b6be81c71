package io.jstark.prover;

import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.memory.Matrix;
import io.jstark.prover.TableBuffers.Buffer;
import io.jstark.prover.TableBuffers.Kind;
import io.jstark.prover.TableBuffers.Rereads;
import io.jstark.prover.TableBuffers.Step;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The steps and buffers of one table's {@link TableBuffers} as they are declared, each sized the way it is made. */
final class BufferLedger {
    private final List<Step> steps = new ArrayList<>();
    private final List<Buffer> buffers = new ArrayList<>();

    /** {@return the index of a new step, run after every step declared before it} */
    int step(String name, ProofPhase pass) {
        steps.add(new Step(steps.size(), name, pass));
        return steps.size() - 1;
    }

    void matrix(String what, MatrixRole role, long rows, long columns, int first, int last) {
        matrix(what, role, rows, columns, first, last, Rereads.NOTHING);
    }

    void matrix(String what, MatrixRole role, long rows, long columns, int first, int last, Rereads rereads) {
        buffers.add(new Buffer(
                what, Kind.MATRIX, role, rows, columns, Matrix.bytesFor(rows, columns), first, last, rereads));
    }

    void tree(String what, MatrixRole role, long rows, int rowsPerLeaf, int first, int last) {
        long leaves = rows / rowsPerLeaf;
        buffers.add(new Buffer(
                what, Kind.MERKLE_TREE, role, leaves, rowsPerLeaf, MerkleTree.bytesFor(leaves), first, last));
    }

    /** Heap scratch of {@code bytes}; none when there are no bytes. */
    void heap(String what, long bytes, int first, int last) {
        if (bytes > 0) {
            buffers.add(new Buffer(what, Kind.HEAP, null, 0, 0, bytes, first, last));
        }
    }

    List<Step> steps() {
        return steps;
    }

    /** {@return the buffers in the order they are made (a stable sort keeps the order of one step's buffers)} */
    List<Buffer> buffersInOrderMade() {
        buffers.sort(Comparator.comparingInt(Buffer::first));
        return buffers;
    }
}
