package io.jstark.crypto.lanes;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Every kernel of this JVM, and messages moved in and out of their layouts byte by byte (the definition). */
final class Kernels {
    private Kernels() {}

    /** The scalar kernel of every hash and every vector kernel there is. */
    static List<LaneHasher> all() {
        List<LaneHasher> kernels = new ArrayList<>();
        for (Hasher hasher : Hashers.all()) {
            kernels.add(LaneHashing.scalar(hasher));
            LaneHashing.vector(hasher).ifPresent(kernels::add);
        }
        return kernels;
    }

    /** The messages' bytes in {@code layout}, whole groups (unused lanes hold {@code filler}). */
    static int[] layOut(LaneLayout layout, byte[][] messages, int filler) {
        int[] words = new int[layout.words(messages.length)];
        Arrays.fill(words, filler);
        for (int m = 0; m < messages.length; m++) {
            for (int w = 0; w < layout.messageWords(); w++) {
                byte[] b = messages[m];
                words[layout.index(m, w)] = (b[4 * w] & 0xFF)
                        | (b[4 * w + 1] & 0xFF) << 8
                        | (b[4 * w + 2] & 0xFF) << 16
                        | (b[4 * w + 3] & 0xFF) << 24;
            }
        }
        return words;
    }

    /** Digest m of {@code count}, read back from {@code layout(32)} as bytes. */
    static byte[] digest(LaneHasher kernel, int[] digests, int m) {
        LaneLayout layout = kernel.layout(Hasher.DIGEST_BYTES);
        byte[] out = new byte[Hasher.DIGEST_BYTES];
        for (int w = 0; w < layout.messageWords(); w++) {
            int word = digests[layout.index(m, w)];
            for (int b = 0; b < 4; b++) {
                out[4 * w + b] = (byte) (word >>> (8 * b));
            }
        }
        return out;
    }

    /** Every message's digest through the kernel, as bytes. */
    static byte[][] hashAll(LaneHasher kernel, byte[][] messages, int messageBytes) {
        int[] words = layOut(kernel.layout(messageBytes), messages, 0x5A5A5A5A);
        int[] digests = new int[kernel.layout(Hasher.DIGEST_BYTES).words(messages.length)];
        kernel.hash(words, messageBytes, messages.length, digests, 0);
        byte[][] out = new byte[messages.length][];
        for (int m = 0; m < messages.length; m++) {
            out[m] = digest(kernel, digests, m);
        }
        return out;
    }
}
