package io.jstark.crypto.merkle;

import io.jstark.crypto.hash.Hasher;
import io.jstark.math.memory.Matrix;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * The tree written out naively from the documented layout (element by element through Matrix.get,
 * one level array per level): what MerkleTree's blocked, parallel build must agree with.
 */
final class ReferenceMerkle {
    final byte[][][] levels;

    ReferenceMerkle(Hasher hasher, List<Matrix> matrices, int rowsPerLeaf) {
        int leaves = matrices.getFirst().rows() / rowsPerLeaf;
        int depth = Integer.numberOfTrailingZeros(leaves);
        levels = new byte[depth + 1][][];
        levels[0] = new byte[leaves][];
        for (int leaf = 0; leaf < leaves; leaf++) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (Matrix matrix : matrices) {
                for (int r = 0; r < rowsPerLeaf; r++) {
                    for (int c = 0; c < matrix.columns(); c++) {
                        long v = matrix.get(leaf * rowsPerLeaf + r, c);
                        for (int b = 0; b < 8; b++) {
                            bytes.write((int) (v >>> (8 * b)) & 0xFF);
                        }
                    }
                }
            }
            levels[0][leaf] = hasher.hash(bytes.toByteArray());
        }
        for (int level = 1; level <= depth; level++) {
            byte[][] below = levels[level - 1];
            levels[level] = new byte[below.length / 2][];
            for (int i = 0; i < below.length / 2; i++) {
                levels[level][i] = hasher.compress(below[2 * i], below[2 * i + 1]);
            }
        }
    }

    byte[] root() {
        return levels[levels.length - 1][0];
    }
}
