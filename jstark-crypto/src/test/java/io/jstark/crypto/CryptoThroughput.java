package io.jstark.crypto;

import io.jstark.crypto.hash.Digester;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.lanes.LaneHasher;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Prints hashing throughput: Merkle node compressions per second on one thread (per node through the digester,
 * and in blocks through each lane kernel, measured in the thread's CPU time so that a shared machine's other
 * work does not count), bytes allocated per node, the cost of committing a 2^20 x 8 matrix, and grinding
 * speed. A measurement to read, not a test: nothing here asserts a time. Run with
 * {@code java -cp <test classpath> io.jstark.crypto.CryptoThroughput [rounds]}.
 */
public final class CryptoThroughput {
    private static final int NODES = 1 << 16;

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        System.out.printf(
                "JVM %s, %d processors%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors());
        for (Hasher hasher : Hashers.all()) {
            nodeRate(hasher, rounds);
        }
        for (Hasher hasher : Hashers.all()) {
            kernelRate(LaneHashing.scalar(hasher), rounds);
            LaneHashing.vector(hasher).ifPresent(kernel -> kernelRate(kernel, rounds));
        }
        for (Hasher hasher : Hashers.all()) {
            leafRate(hasher, rounds);
        }
        for (Hasher hasher : Hashers.all()) {
            List<LaneHasher> kernels = new ArrayList<>(List.of(LaneHashing.scalar(hasher)));
            LaneHashing.vector(hasher).ifPresent(kernels::add);
            for (LaneHasher kernel : kernels) {
                for (int threads : new int[] {1, 2}) {
                    for (int rowsPerLeaf : new int[] {1, 4}) {
                        commitRate(kernel, threads, rowsPerLeaf, hasher.name().equals("keccak256") ? 3 : rounds);
                    }
                }
            }
        }
        grindRate(rounds);
    }

    /** H(left || right) over NODES pairs, exactly the loop MerkleTree runs per level block. */
    private static void nodeRate(Hasher hasher, int rounds) {
        byte[] in = new byte[NODES * 64];
        new SplittableRandom(1).nextBytes(in);
        byte[] out = new byte[NODES * 32];
        Digester digester = hasher.newDigester();
        double[] rates = new double[rounds];
        long allocated = 0;
        for (int warm = 0; warm < 20; warm++) {
            hashNodes(digester, in, out);
        }
        for (int r = 0; r < rounds; r++) {
            long bytesBefore = threadAllocatedBytes();
            long start = System.nanoTime();
            int repeats = 8;
            for (int k = 0; k < repeats; k++) {
                hashNodes(digester, in, out);
            }
            long nanos = System.nanoTime() - start;
            allocated = threadAllocatedBytes() - bytesBefore;
            rates[r] = (double) NODES * repeats / (nanos / 1e9);
        }
        Arrays.sort(rates);
        System.out.printf(
                "node hash %-9s  median %6.2f M nodes/s  (min %6.2f, max %6.2f)  allocated %.3f B/node%n",
                hasher.name(),
                rates[rounds / 2] / 1e6,
                rates[0] / 1e6,
                rates[rounds - 1] / 1e6,
                (double) allocated / (NODES * 8.0));
    }

    /** Node compression in blocks of 1024 through a kernel, per core: thread CPU time, not wall. */
    private static void kernelRate(LaneHasher kernel, int rounds) {
        int block = 1024;
        int[] children = new SplittableRandom(4)
                .ints(kernel.layout(Hasher.DIGEST_BYTES).words(2 * block))
                .toArray();
        int[] parents = new int[kernel.layout(Hasher.DIGEST_BYTES).words(block)];
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double[] rates = new double[rounds];
        for (int r = -20; r < rounds; r++) {
            long start = threads.getCurrentThreadCpuTime();
            int repeats = 64;
            for (int k = 0; k < repeats; k++) {
                kernel.compressPairs(children, 0, block, parents, 0);
            }
            long nanos = threads.getCurrentThreadCpuTime() - start;
            if (r >= 0) {
                rates[r] = (double) block * repeats / (nanos / 1e9);
            }
        }
        Arrays.sort(rates);
        System.out.printf(
                "nodes in %-72s median %6.2f M nodes/s per core (%.1f ns/node of CPU)%n",
                kernel.description(), rates[rounds / 2] / 1e6, 1e9 / rates[rounds / 2]);
    }

    private static void hashNodes(Digester digester, byte[] in, byte[] out) {
        for (int i = 0; i < NODES; i++) {
            digester.hash(in, 64 * i, 64, out, 32 * i);
        }
    }

    /** Hashing 64-byte leaves (one row of 8 elements) already laid out in memory: no gather cost. */
    private static void leafRate(Hasher hasher, int rounds) {
        int leafBytes = 128;
        int leaves = 1 << 15;
        byte[] in = new byte[leaves * leafBytes];
        new SplittableRandom(2).nextBytes(in);
        byte[] out = new byte[32];
        Digester digester = hasher.newDigester();
        double[] rates = new double[rounds];
        for (int r = -5; r < rounds; r++) {
            long start = System.nanoTime();
            for (int i = 0; i < leaves; i++) {
                digester.hash(in, i * leafBytes, leafBytes, out, 0);
            }
            long nanos = System.nanoTime() - start;
            if (r >= 0) {
                rates[r] = (double) leaves / (nanos / 1e9);
            }
        }
        Arrays.sort(rates);
        System.out.printf(
                "raw hash  %-9s  128-byte messages: median %6.2f M/s = %6.0f MB/s%n",
                hasher.name(), rates[rounds / 2] / 1e6, rates[rounds / 2] * leafBytes / 1e6);
    }

    /** A whole commit of 2^20 rows x 8 columns: gather + leaf hashing + all levels. */
    private static void commitRate(LaneHasher kernel, int threads, int rowsPerLeaf, int rounds) {
        int rows = 1 << 20;
        int columns = 8;
        RamAllocator allocator = new RamAllocator();
        try (Matrix matrix = Matrix.allocate(allocator, "bench", rows, columns);
                WorkerPool pool = WorkerPool.ofThreads(threads)) {
            SplittableRandom random = new SplittableRandom(3);
            for (int c = 0; c < columns; c++) {
                for (int r = 0; r < rows; r++) {
                    matrix.set(r, c, random.nextLong() >>> 1);
                }
            }
            double[] seconds = new double[rounds];
            for (int r = -2; r < rounds; r++) {
                long start = System.nanoTime();
                try (MerkleTree tree = MerkleTree.commit(List.of(matrix), rowsPerLeaf, kernel, pool, allocator)) {
                    long nanos = System.nanoTime() - start;
                    if (r >= 0) {
                        seconds[r] = nanos / 1e9;
                    }
                    if (tree.leaves() != rows / rowsPerLeaf) {
                        throw new AssertionError("unexpected leaf count");
                    }
                }
            }
            Arrays.sort(seconds);
            double s = seconds[rounds / 2];
            int leaves = rows / rowsPerLeaf;
            System.out.printf(
                    "commit    %-72s  2^20 x 8, R=%d, %d thread(s): median %6.1f ms  = %5.2f M rows/s, "
                            + "%6.0f MB/s of leaf data, %5.2f M hashes/s (%d leaves + %d nodes)%n",
                    kernel.description(),
                    rowsPerLeaf,
                    threads,
                    s * 1e3,
                    rows / s / 1e6,
                    Matrix.bytesFor(rows, columns) / s / 1e6,
                    (2.0 * leaves - 1) / s / 1e6,
                    leaves,
                    leaves - 1);
        }
    }

    private static void grindRate(int rounds) {
        for (Hasher hasher : Hashers.all()) {
            new Transcript(hasher, "warm-up").grind(16, WorkerPool.common());
        }
        for (Hasher hasher : Hashers.all()) {
            // 20 bits: about a million grinding hashes
            Transcript transcript = new Transcript(hasher, "grind-bench");
            long start = System.nanoTime();
            long nonce = transcript.copy().grind(20, WorkerPool.common());
            double s = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    "grind     %-9s  20 bits on %d threads: nonce %d in %.3f s (%.2f M tries/s)%n",
                    hasher.name(), WorkerPool.common().parallelism(), nonce, s, (nonce + 1) / s / 1e6);
        }
    }

    private static long threadAllocatedBytes() {
        var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return bean.getCurrentThreadAllocatedBytes();
    }
}
