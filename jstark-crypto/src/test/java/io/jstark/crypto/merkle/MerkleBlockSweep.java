package io.jstark.crypto.merkle;

import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.lanes.LaneHasher;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One row of docs/sweeps/merkle-blocks.txt: 13 commits of a random matrix with BLAKE3's lane kernel (4
 * unmeasured), median and minimum wall. The sweep runs it once per MerkleTree block-size variant (the
 * constants edited and rebuilt) and shape. A measurement to read, not a test. Arguments: label log2(rows)
 * columns rowsPerLeaf threads.
 */
public final class MerkleBlockSweep {
    private MerkleBlockSweep() {}

    public static void main(String[] args) {
        String label = args[0];
        int logRows = Integer.parseInt(args[1]);
        int columns = Integer.parseInt(args[2]);
        int rowsPerLeaf = Integer.parseInt(args[3]);
        int threads = Integer.parseInt(args[4]);
        LaneHasher kernel = LaneHashing.vector(Hashers.byName("blake3")).orElseThrow();
        int rows = 1 << logRows;
        try (Matrix matrix = Matrix.allocate(RamAllocator.shared(), "sweep", rows, columns);
                WorkerPool pool = WorkerPool.ofThreads(threads)) {
            SplittableRandom random = new SplittableRandom(1);
            long[] column = new long[rows];
            for (int c = 0; c < columns; c++) {
                for (int i = 0; i < rows; i++) {
                    column[i] = random.nextLong() >>> 1;
                }
                matrix.writeColumn(c, 0, column, 0, rows);
            }
            double[] millis = new double[9];
            for (int k = -4; k < millis.length; k++) {
                long start = System.nanoTime();
                try (MerkleTree tree =
                        MerkleTree.commit(List.of(matrix), rowsPerLeaf, kernel, pool, RamAllocator.shared())) {
                    if (tree.leaves() != rows / rowsPerLeaf) {
                        throw new AssertionError("unexpected leaf count");
                    }
                }
                if (k >= 0) {
                    millis[k] = (System.nanoTime() - start) / 1e6;
                }
            }
            Arrays.sort(millis);
            System.out.printf(
                    "%s 2^%d x %d R=%d threads=%d: median %.1f ms wall (min %.1f); load %.2f%n",
                    label,
                    logRows,
                    columns,
                    rowsPerLeaf,
                    threads,
                    millis[millis.length / 2],
                    millis[0],
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }
}
