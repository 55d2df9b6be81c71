package io.jstark.protocol;

import io.jstark.air.Air;
import io.jstark.air.AirDigest;
import io.jstark.air.trace.Preprocessed;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Preprocessed commitments ({@link Preprocessing#commit}) kept on disk across processes: each is computed
 * once per definition, preprocessed values and {@link Preprocessing.CommitmentOptions}, then loaded.
 *
 * <p><b>Key.</b> An entry is found by the SHA-256 of everything the commitment depends on: this format's
 * version, the proof format's, the coset shift, the definition's name and {@link AirDigest} <em>and its
 * preprocessed column values</em> (the digest leaves them out: they are functions of the row, so two
 * builds of a same-digest definition may compute different ones), the blowup, the rows per leaf and the
 * hash. The values are generated (cheap next to the LDE and tree) and hashed on every lookup, so a changed
 * column never finds the old entry.
 *
 * <p><b>Integrity.</b> An entry ends with the SHA-256 of everything before it; one that does not match, is
 * truncated or names another key or shape is counted as {@link Stats#rejected() rejected}, recomputed and
 * replaced, never used. This detects damage (a flipped bit, a partial copy), not a deliberate forgery by
 * someone who can write the directory: the directory is the user's own, as their files are.
 *
 * <p><b>Files.</b> One file per entry, {@code preprocessed-v1/<key hex>.bin} under the directory, written
 * to a temporary file and moved into place, so concurrent processes see a whole entry or none; a
 * directory that cannot be written only means nothing is kept ({@link Stats#unstored()}).
 *
 * <pre>
 * entry, little-endian:
 *   "JSPC" u32 format version, 32-byte key
 *   u32 LDE rows, u32 columns, u32 rows per leaf, u32 node lanes, u64 LDE bytes, u64 node bytes
 *   LDE (column-major elements, as {@link Matrix} stores them), tree nodes (as {@link MerkleTree#nodeStorage()})
 *   32-byte SHA-256 of everything before
 * </pre>
 */
public final class PreprocessedCache {
    /** The version of the entry layout (the class comment); entries of another version live in another subdirectory. */
    public static final int FORMAT_VERSION = 1;

    private static final byte[] MAGIC = {'J', 'S', 'P', 'C'};
    private static final int HEADER_BYTES = MAGIC.length + 4 + 32 + 4 * 4 + 2 * 8;
    private static final int DIGEST = 32;
    private static final long CHUNK = 1 << 26;
    private static final String SUBDIRECTORY = "preprocessed-v" + FORMAT_VERSION;

    private final Path directory;
    private final AtomicInteger hits = new AtomicInteger();
    private final AtomicInteger misses = new AtomicInteger();
    private final AtomicInteger rejected = new AtomicInteger();
    private final AtomicInteger unstored = new AtomicInteger();

    private PreprocessedCache(Path directory) {
        this.directory = directory;
    }

    /**
     * {@return a cache in {@code directory} (created when the first entry is stored)}
     *
     * @param directory the cache's directory, made absolute
     */
    public static PreprocessedCache in(Path directory) {
        return new PreprocessedCache(directory.toAbsolutePath());
    }

    /** {@return the cache's directory, absolute} */
    public Path directory() {
        return directory;
    }

    /**
     * Lookups so far: entries loaded, computed (none was there), rejected (damaged, then recomputed), and
     * computed but not stored (the directory could not be written).
     *
     * @param hits entries loaded
     * @param misses commitments computed because no entry was there
     * @param rejected damaged entries, recomputed
     * @param unstored commitments computed but not stored
     */
    public record Stats(int hits, int misses, int rejected, int unstored) {}

    /** {@return the lookups since this cache object was made} */
    public Stats stats() {
        return new Stats(hits.get(), misses.get(), rejected.get(), unstored.get());
    }

    /**
     * The commitment of {@code air}'s preprocessed columns under {@code options}: loaded from an intact
     * entry of exactly these values and options, else computed ({@link Preprocessing#commit}) and stored.
     * Either way the same bytes; the caller owns the result.
     *
     * @param air a definition with preprocessed columns
     * @param options the options the commitment is made under
     * @param hasher the options' hash
     * @param pool the worker pool for a computed commitment
     * @param allocator where the LDE and the tree live
     * @return the commitment (LDE and Merkle tree); close it
     * @throws IllegalArgumentException when {@code air} has no preprocessed columns
     */
    public Preprocessing.Committed commit(
            Air air, ProofOptions options, Hasher hasher, WorkerPool pool, BufferAllocator allocator) {
        if (air.preprocessedWidth() == 0) {
            throw new IllegalArgumentException("table '" + air.name() + "' has no preprocessed columns");
        }
        try (Matrix natural = Preprocessed.generate(air, allocator)) {
            byte[] key = key(air, natural, options, hasher);
            Path file = entry(key);
            Preprocessing.Committed loaded = load(file, key, air, natural, options, hasher, allocator);
            if (loaded != null) {
                hits.incrementAndGet();
                return loaded;
            }
            Preprocessing.Committed computed =
                    Preprocessing.commit(natural, air.name(), options, hasher, pool, allocator);
            store(file, key, computed);
            return computed;
        }
    }

    /**
     * {@return the pinned roots of a {@link VerifyingKey} from this cache: each commitment loaded or computed, then only its root kept}
     *
     * @param pool the worker pool for commitments that must be computed
     */
    public VerifyingKey.RootSource roots(WorkerPool pool) {
        return (air, options) -> {
            try (Preprocessing.Committed c =
                    commit(air, options, Hashers.byName(options.hash()), pool, RamAllocator.shared())) {
                return c.tree().root();
            }
        };
    }

    /**
     * Deletes every entry (and temporary file) of this format.
     *
     * @return how many files were removed
     * @throws IOException when the directory cannot be listed or a file cannot be deleted
     */
    public int clear() throws IOException {
        Path dir = directory.resolve(SUBDIRECTORY);
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                if (Files.isRegularFile(f) && Files.deleteIfExists(f)) {
                    removed++;
                }
            }
        }
        Files.deleteIfExists(dir);
        return removed;
    }

    /**
     * Entries of this format and the bytes they hold.
     *
     * @param entries the entry files
     * @param bytes their total size, in bytes
     */
    public record Usage(int entries, long bytes) {}

    /**
     * {@return the entries of this format on disk now}
     *
     * @throws IOException when the directory cannot be listed
     */
    public Usage usage() throws IOException {
        Path dir = directory.resolve(SUBDIRECTORY);
        if (!Files.isDirectory(dir)) {
            return new Usage(0, 0);
        }
        int entries = 0;
        long bytes = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.bin")) {
            for (Path f : files) {
                entries++;
                bytes += Files.size(f);
            }
        }
        return new Usage(entries, bytes);
    }

    private Path entry(byte[] key) {
        return directory.resolve(SUBDIRECTORY).resolve(HexFormat.of().formatHex(key) + ".bin");
    }

    /** SHA-256 of everything the commitment depends on (see the class comment). */
    static byte[] key(Air air, Matrix natural, ProofOptions options, Hasher hasher) {
        MessageDigest md = sha256();
        LittleEndianWriter fixed = new LittleEndianWriter();
        fixed.bytes(MAGIC);
        fixed.u32(FORMAT_VERSION);
        fixed.u32(ProofFormat.VERSION);
        // the LDE's coset shift ({@link Preprocessing#shift}): an entry made under another shift misses
        int logBlowup = Preprocessing.ldeLogBlowup(options, Integer.numberOfTrailingZeros(natural.rows()));
        int logLde = Integer.numberOfTrailingZeros(natural.rows()) + logBlowup;
        fixed.u64(Preprocessing.shift(logLde));
        fixed.u32(logBlowup);
        fixed.u32(options.foldingFactor());
        fixed.u32(natural.rows());
        fixed.u32(natural.columns());
        md.update(fixed.toByteArray());
        updateString(md, hasher.name());
        updateString(md, air.name());
        md.update(AirDigest.of(air));
        update(md, natural.segment());
        return md.digest();
    }

    private static void updateString(MessageDigest md, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        LittleEndianWriter length = new LittleEndianWriter();
        length.u32(bytes.length);
        md.update(length.toByteArray());
        md.update(bytes);
    }

    /** The entry's commitment when it is whole and of exactly this key and shape; null (counted) otherwise. */
    private Preprocessing.Committed load(
            Path file,
            byte[] key,
            Air air,
            Matrix natural,
            ProofOptions options,
            Hasher hasher,
            BufferAllocator allocator) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                Arena arena = Arena.ofConfined()) {
            long size = channel.size();
            if (size < HEADER_BYTES + DIGEST) {
                rejected.incrementAndGet();
                return null;
            }
            MemorySegment bytes = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            MessageDigest md = sha256();
            update(md, bytes.asSlice(0, size - DIGEST));
            byte[] stored = bytes.asSlice(size - DIGEST).toArray(ValueLayout.JAVA_BYTE);
            // the size is checked above: the header is there, whatever it holds
            LittleEndianReader<IllegalStateException, RuntimeException> header = LittleEndianReader.of(
                    bytes.asSlice(0, HEADER_BYTES).toArray(ValueLayout.JAVA_BYTE),
                    0,
                    HEADER_BYTES,
                    IllegalStateException::new);
            byte[] magic = header.bytes(MAGIC.length, "magic");
            int version = header.u32("version");
            byte[] entryKey = header.bytes(DIGEST, "key");
            int rows = header.u32("LDE rows");
            int columns = header.u32("columns");
            int rowsPerLeaf = header.u32("rows per leaf");
            int lanes = header.u32("node lanes");
            long ldeBytes = header.u64("LDE bytes");
            long nodeBytes = header.u64("node bytes");
            boolean intact = MessageDigest.isEqual(md.digest(), stored)
                    && Arrays.equals(magic, MAGIC)
                    && version == FORMAT_VERSION
                    && Arrays.equals(entryKey, key)
                    && rows
                            == natural.rows()
                                    << Preprocessing.ldeLogBlowup(
                                            options, Integer.numberOfTrailingZeros(natural.rows()))
                    && columns == natural.columns()
                    && rowsPerLeaf == options.foldingFactor()
                    && lanes > 0
                    && Integer.bitCount(lanes) == 1
                    && ldeBytes == Matrix.bytesFor(rows, columns)
                    && nodeBytes == MerkleTree.bytesFor(rows / rowsPerLeaf)
                    && size == HEADER_BYTES + ldeBytes + nodeBytes + DIGEST;
            if (!intact) {
                rejected.incrementAndGet();
                return null;
            }
            Matrix lde = Matrix.allocate(allocator, air.name() + "/preprocessed-lde", rows, columns);
            try {
                lde.segment().copyFrom(bytes.asSlice(HEADER_BYTES, ldeBytes));
                MerkleTree tree = MerkleTree.restore(
                        java.util.List.of(lde),
                        rowsPerLeaf,
                        hasher,
                        lanes,
                        bytes.asSlice(HEADER_BYTES + ldeBytes, nodeBytes),
                        allocator);
                return new Preprocessing.Committed(lde, tree);
            } catch (RuntimeException | Error e) {
                lde.close();
                throw e;
            }
        } catch (NoSuchFileException e) {
            misses.incrementAndGet();
            return null;
        } catch (IOException e) {
            // unreadable: as good as absent, and replaced below if the directory allows
            rejected.incrementAndGet();
            return null;
        }
    }

    private void store(Path file, byte[] key, Preprocessing.Committed c) {
        Path temporary = null;
        try {
            Files.createDirectories(file.getParent());
            temporary = Files.createTempFile(file.getParent(), "entry", ".tmp");
            MemorySegment lde = c.lde().segment();
            MemorySegment nodes = c.tree().nodeStorage();
            LittleEndianWriter header = new LittleEndianWriter();
            header.bytes(MAGIC);
            header.u32(FORMAT_VERSION);
            header.bytes(key);
            header.u32(c.lde().rows());
            header.u32(c.lde().columns());
            header.u32(c.tree().rowsPerLeaf());
            header.u32(c.tree().storageLanes());
            header.u64(lde.byteSize());
            header.u64(nodes.byteSize());
            MessageDigest md = sha256();
            try (FileChannel out =
                    FileChannel.open(temporary, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                for (MemorySegment part :
                        new MemorySegment[] {MemorySegment.ofArray(header.toByteArray()), lde, nodes}) {
                    update(md, part);
                    for (long at = 0; at < part.byteSize(); at += CHUNK) {
                        writeFully(
                                out,
                                part.asSlice(at, Math.min(CHUNK, part.byteSize() - at))
                                        .asByteBuffer());
                    }
                }
                writeFully(out, ByteBuffer.wrap(md.digest()));
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            temporary = null;
        } catch (IOException | UncheckedIOException e) {
            unstored.incrementAndGet();
        } finally {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // a stray temporary file: 'clear' removes it
                }
            }
        }
    }

    /** Segments past 2 GiB have no ByteBuffer view: in chunks. */
    private static void update(MessageDigest md, MemorySegment segment) {
        for (long at = 0; at < segment.byteSize(); at += CHUNK) {
            md.update(segment.asSlice(at, Math.min(CHUNK, segment.byteSize() - at))
                    .asByteBuffer());
        }
    }

    private static void writeFully(FileChannel out, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            out.write(buffer);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK provides SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "PreprocessedCache[" + directory + "]";
    }
}
