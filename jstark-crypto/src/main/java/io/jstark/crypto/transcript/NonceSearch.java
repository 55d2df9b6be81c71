package io.jstark.crypto.transcript;

import io.jstark.crypto.hash.Digester;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.lanes.LaneHasher;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.crypto.lanes.LaneLayout;
import io.jstark.math.parallel.WorkerPool;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The proof of work of {@link Transcript#grind}: nonce n is valid for a 32-byte prefix and b bits when
 * H(prefix || u64(n)) starts with at least b zero bits (byte 0 first, most significant bit of a byte first). The
 * search finds the smallest valid nonce whatever the pool's parallelism and whichever lane kernel hashes.
 */
final class NonceSearch {
    private static final int DIGEST = Hasher.DIGEST_BYTES;
    private static final int NONCE_BYTES = Long.BYTES;
    /** Nonces one grinding task tries before the round's tasks compare results. */
    private static final int GRIND_CHUNK = 1 << 12;
    /** Grinding messages hashed per kernel call (whole passes of any kernel's lanes). */
    private static final int NONCE_BATCH = 256;

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private NonceSearch() {}

    /**
     * The smallest valid nonce. The search runs on {@code pool} in rounds of consecutive chunks; a round ends with the
     * smallest valid nonce it contains, so the answer does not depend on the number of threads.
     */
    static long smallestValid(Hasher hasher, byte[] prefix, int bits, WorkerPool pool) {
        int tasks = Math.max(1, pool.parallelism() * 2);
        long roundSize = (long) tasks * GRIND_CHUNK;
        for (long roundStart = 0; ; roundStart += roundSize) {
            AtomicLong best = new AtomicLong(Long.MAX_VALUE);
            long start = roundStart;
            pool.forEachChunk(tasks, task -> {
                long from = start + (long) task * GRIND_CHUNK;
                search(hasher, prefix, bits, from, from + GRIND_CHUNK, best);
            });
            long found = best.get();
            if (found != Long.MAX_VALUE) {
                return found;
            }
        }
    }

    /** Whether {@code nonce} is valid, hashed with {@code digester} (which is reset first). */
    static boolean isValid(Digester digester, byte[] prefix, int bits, long nonce) {
        byte[] message = new byte[DIGEST + NONCE_BYTES];
        System.arraycopy(prefix, 0, message, 0, DIGEST);
        LONG_LE.set(message, DIGEST, nonce);
        byte[] digest = new byte[DIGEST];
        digester.reset();
        digester.hash(message, 0, message.length, digest, 0);
        return hasLeadingZeroBits(digest, bits);
    }

    /**
     * Tries nonces [from, to) in order, a batch of grinding messages at a time through the hash's lane kernel
     * (the digests are the hash's own, so the nonce found does not depend on the kernel); stops at the first
     * valid one or once a smaller one is known.
     */
    private static void search(Hasher hasher, byte[] prefix, int bits, long from, long to, AtomicLong best) {
        LaneHasher kernel = LaneHashing.kernel(hasher);
        LaneLayout messages = kernel.layout(DIGEST + NONCE_BYTES);
        LaneLayout digestLayout = kernel.layout(DIGEST);
        int[] words = new int[messages.words(NONCE_BATCH)];
        int[] digests = new int[digestLayout.words(NONCE_BATCH)];
        for (int m = 0; m < NONCE_BATCH; m++) {
            for (int w = 0; w < DIGEST / Integer.BYTES; w++) {
                words[messages.index(m, w)] = (int) INT_LE.get(prefix, w * Integer.BYTES);
            }
        }
        int nonceWord = DIGEST / Integer.BYTES;
        for (long first = from; first < to && first < best.get(); first += NONCE_BATCH) {
            int n = (int) Math.min(NONCE_BATCH, to - first);
            for (int m = 0; m < n; m++) {
                long nonce = first + m;
                words[messages.index(m, nonceWord)] = (int) nonce;
                words[messages.index(m, nonceWord + 1)] = (int) (nonce >>> 32);
            }
            kernel.hash(words, DIGEST + NONCE_BYTES, n, digests, 0);
            for (int m = 0; m < n; m++) {
                long firstBytes = (digests[digestLayout.index(m, 0)] & 0xFFFF_FFFFL)
                        | (long) digests[digestLayout.index(m, 1)] << 32;
                if (leadingZeroBits(firstBytes) >= bits) {
                    best.accumulateAndGet(first + m, Math::min);
                    return;
                }
            }
        }
    }

    /** True when the first {@code bits} bits of {@code digest} (byte 0 first, high bit first) are zero. */
    static boolean hasLeadingZeroBits(byte[] digest, int bits) {
        return leadingZeroBits((long) LONG_LE.get(digest, 0)) >= bits;
    }

    /**
     * Leading zero bits of a digest, counted byte 0 first and high bit first, from its first 8 bytes read as a
     * little-endian long (grinding asks for at most {@link Transcript#MAX_GRINDING_BITS} = 64).
     */
    private static int leadingZeroBits(long firstBytesLittleEndian) {
        return Long.numberOfLeadingZeros(Long.reverseBytes(firstBytesLittleEndian));
    }
}
