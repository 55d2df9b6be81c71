package io.jstark.prover;

import io.jstark.math.field.Goldilocks;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Every random value of one zero-knowledge proof, drawn from a 32-byte proof seed: each (table, phase, purpose) has
 * its own ChaCha20 keystream, keyed by SHA-256 of the seed and those three, and each consumer reads its stream in a
 * fixed order. So the values depend on the seed and the statement only, never on the schedule (k, budgets, storage,
 * threads, backend), and a retried or remote table draws them again.
 */
public final class ZkRandomness {
    /** Bytes of a proof seed. */
    public static final int SEED_BYTES = 32;

    private static final byte[] DOMAIN = "jstark-zk-stream-v1".getBytes(StandardCharsets.UTF_8);
    /** The seeds' source, shared (SecureRandom is thread-safe and seeds itself once). */
    private static final SecureRandom SEEDS = new SecureRandom();

    private final byte[] seed;

    private ZkRandomness(byte[] seed) {
        this.seed = seed.clone();
    }

    /**
     * The randomness of a proof with this seed.
     *
     * @param seed {@value #SEED_BYTES} bytes
     * @return the proof's randomness
     * @throws IllegalArgumentException when the seed is not {@value #SEED_BYTES} bytes
     */
    public static ZkRandomness ofSeed(byte[] seed) {
        if (seed.length != SEED_BYTES) {
            throw new IllegalArgumentException("a zero-knowledge seed is " + SEED_BYTES + " bytes, got " + seed.length);
        }
        return new ZkRandomness(seed);
    }

    /** {@return the randomness of a proof with a fresh seed from {@link SecureRandom}} */
    public static ZkRandomness fresh() {
        byte[] seed = new byte[SEED_BYTES];
        SEEDS.nextBytes(seed);
        return new ZkRandomness(seed);
    }

    /**
     * The seed, for a backend that has a proof's tables committed elsewhere (a cluster's workers draw the same streams
     * from it); whoever holds it can remove the proof's randomness, so it travels only to machines trusted with the
     * witness.
     *
     * @return a copy of the {@value #SEED_BYTES} bytes
     */
    public byte[] seed() {
        return seed.clone();
    }

    /** What a stream's values are for (part of its key, so that no two uses share values). */
    public enum Purpose {
        /** The salts of a committed matrix's leaves. */
        SALT,
        /** The random rows of the extended trace. */
        EXTENSION,
        /** The composition parts' blinders. */
        BLINDER,
        /** The random codeword of FRI's batch. */
        CODEWORD,
        /** The bus mask triples. */
        MASK
    }

    /**
     * The stream of one table's phase for one purpose, from its first value.
     *
     * @param table the table's index in the statement (-1 for values of no one table)
     * @param phase the phase's name ("main", "aux", "composition", ...)
     * @param purpose what the values are for
     * @return a new stream
     */
    public Stream stream(int table, String phase, Purpose purpose) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(DOMAIN);
            sha.update(seed);
            sha.update(ByteBuffer.allocate(8)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(table)
                    .putInt(purpose.ordinal())
                    .array());
            sha.update(phase.getBytes(StandardCharsets.UTF_8));
            return new Stream(sha.digest());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }

    /** A keystream read as uniform field elements: little-endian 64-bit words, a word of p or more skipped. */
    public static final class Stream {
        private static final int BLOCK = 1 << 14;
        private final Cipher cipher;
        private final byte[] zeros = new byte[BLOCK];
        private final byte[] block = new byte[BLOCK];
        private final ByteBuffer words = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
        private int position = BLOCK;

        private Stream(byte[] key) {
            try {
                cipher = Cipher.getInstance("ChaCha20");
                cipher.init(
                        Cipher.ENCRYPT_MODE,
                        new SecretKeySpec(key, "ChaCha20"),
                        new ChaCha20ParameterSpec(new byte[12], 0));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("the JDK lacks ChaCha20", e);
            } finally {
                Arrays.fill(key, (byte) 0);
            }
        }

        /** {@return the next uniform element of [0, p)} */
        public long nextField() {
            while (true) {
                if (position == BLOCK) {
                    refill();
                }
                long word = words.getLong(position);
                position += Long.BYTES;
                if (Long.compareUnsigned(word, Goldilocks.P) < 0) {
                    return word;
                }
            }
        }

        /**
         * Fills {@code out[from..to)} with the next elements, in index order.
         *
         * @param out the array
         * @param from its first index filled
         * @param to one past its last
         */
        public void fill(long[] out, int from, int to) {
            for (int i = from; i < to; i++) {
                out[i] = nextField();
            }
        }

        private void refill() {
            try {
                cipher.update(zeros, 0, BLOCK, block, 0);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("ChaCha20 keystream", e);
            }
            position = 0;
        }
    }
}
