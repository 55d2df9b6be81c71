package io.jstark.examples.hashes;

import io.jstark.crypto.hash.Digester;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts the hashes the calling thread computes through every {@link Hasher}'s thread digester (which every
 * Merkle leaf and node hash goes through; the transcript and the grinding check make their own digester and
 * are not counted), with no cost to production code: while installed, the
 * calling thread's digester of each hash is a counting wrapper of the real one. A hash is one finished
 * message; its blocks are the 64-byte compression-function calls it takes (SHA-256 with its 9 bytes of
 * padding, BLAKE3 and Keccak by their 64-byte chunks and 136-byte rate: what the hash's kernel runs).
 */
final class CountingHashes implements AutoCloseable {
    private final List<ThreadLocal<Digester>> locals = new ArrayList<>();
    private final List<Digester> originals = new ArrayList<>();
    long hashes;
    long bytes;
    long blocks;

    /** Installs counting digesters for the calling thread. */
    static CountingHashes install() {
        CountingHashes counting = new CountingHashes();
        for (Hasher hasher : Hashers.all()) {
            ThreadLocal<Digester> local = threadLocalOf(hasher);
            Digester original = local.get();
            counting.locals.add(local);
            counting.originals.add(original);
            local.set(counting.new Counting(original));
        }
        return counting;
    }

    @SuppressWarnings("unchecked")
    private static ThreadLocal<Digester> threadLocalOf(Hasher hasher) {
        try {
            Field field = Class.forName("io.jstark.crypto.hash.AbstractHasher").getDeclaredField("perThread");
            field.setAccessible(true);
            return (ThreadLocal<Digester>) field.get(hasher);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(
                    "the hashers' thread digesters are not where this counter looks for them", e);
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < locals.size(); i++) {
            locals.get(i).set(originals.get(i));
        }
    }

    private static long blocksOf(String hash, long length) {
        return switch (hash) {
            case "sha256" -> (length + 9 + 63) / 64;
            case "keccak256" -> length / 136 + 1;
            default -> Math.max(1, (length + 63) / 64);
        };
    }

    private final class Counting implements Digester {
        private final Digester real;
        private long length;

        Counting(Digester real) {
            this.real = real;
        }

        @Override
        public Hasher hasher() {
            return real.hasher();
        }

        @Override
        public void update(byte[] in, int off, int len) {
            length += len;
            real.update(in, off, len);
        }

        @Override
        public void update(byte b) {
            length++;
            real.update(b);
        }

        @Override
        public void finish(byte[] out, int outOff) {
            hashes++;
            bytes += length;
            blocks += blocksOf(real.hasher().name(), length);
            length = 0;
            real.finish(out, outOff);
        }

        @Override
        public void reset() {
            length = 0;
            real.reset();
        }
    }
}
