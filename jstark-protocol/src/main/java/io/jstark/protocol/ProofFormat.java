package io.jstark.protocol;

import io.jstark.air.Air;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.UnknownHashException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The binary proof format, version {@value #VERSION} (one opening for all tables). All integers
 * little-endian; field elements 8 bytes canonical; extension elements 24 bytes (c0, c1, c2); digests 32
 * bytes; strings u16 length + UTF-8, names only ({@link #nameViolation}: at most 255 bytes, visible text).
 * Heights are 2^1..2^28 ({@link #heightViolation}).
 *
 * <pre>
 * "JSTK" u16 version (2; any other version is refused, naming it)
 * options: u8 log2 blowup, u8 queries, u8 grinding bits, u8 log2 folding factor, u8 log2 final degree,
 *          u8 hash id, u8 required security bits
 * u16 table count; per table: str name, str air name, u8 log2 height,
 *          u16 public input count + elements, u8 has preprocessed (+ digest)
 * the body: {@link ProofBody}
 * </pre>
 *
 * The reader treats every byte as hostile. It reads from a stream (or an array) and never holds the raw
 * bytes whole. Before it reads anything it knows the most bytes an accepted proof can have
 * ({@link ReadChecks#maxBytes()}, from {@link #maxBytes}); every length is checked against what that
 * leaves before anything is allocated, so allocations stay in proportion to sizes already checked. The
 * options are checked as soon as they are read, the table headers before any section: a proof naming
 * options or tables the caller does not accept is refused after a few hundred bytes.
 */
public final class ProofFormat {
    /**
     * The one version this release writes and reads: one opening for all tables ({@link ProofTranscript}).
     * Any other version is refused with its version named.
     */
    public static final int VERSION = 2;

    static final byte[] MAGIC = {'J', 'S', 'T', 'K'};
    static final int DIGEST = Hasher.DIGEST_BYTES;
    /** The most tables a proof may hold: no honest proof comes near it; it keeps a hostile count from meaning anything. */
    public static final int MAX_TABLES = 1 << 12;
    /** No proof within the format's bounds comes near this; readers refuse larger inputs unread. */
    public static final long MAX_PROOF_BYTES = 1L << 30;
    /** The tallest table a proof may hold: 2^28 rows. */
    public static final int MAX_LOG_HEIGHT = 28;
    /** The longest table or definition name, in UTF-8 bytes. */
    public static final int MAX_NAME_BYTES = 255;
    /** "JSTK", the version, the options and the table count. */
    static final int PREFIX_BYTES = 4 + 2 + 7 + 2;

    private ProofFormat() {}

    // ------------------------------------------------------------------ names and heights

    /**
     * Why {@code name} cannot name a table or a table definition in a proof, or empty when it can: longer
     * than {@value #MAX_NAME_BYTES} bytes of UTF-8, or holding a character that is not visible text
     * ({@link #isInvisible}). Names are printed wherever a proof is described, so a newline or an escape
     * sequence in one could forge a line of output or drive a terminal.
     *
     * @param name a table's name or a table definition's name
     * @return the rule the name breaks, in words (without the name itself), or empty
     */
    public static Optional<String> nameViolation(String name) {
        return NameAndHeightRules.nameViolation(name);
    }

    /**
     * A code point that is not visible text: a control character (C0, DEL, C1), a format character (bidi
     * overrides, zero-width characters), a line or paragraph separator, or a lone surrogate.
     *
     * @param codePoint a Unicode code point
     * @return true when names may not hold it
     */
    public static boolean isInvisible(int codePoint) {
        return NameAndHeightRules.isInvisible(codePoint);
    }

    /**
     * Why tables of 2^minLogHeight..2^maxLogHeight rows cannot be in a proof, or empty when they can: the
     * format's one height range, 2^1..2^{@value #MAX_LOG_HEIGHT}.
     *
     * @param minLogHeight log2 of the fewest rows
     * @param maxLogHeight log2 of the most rows (equal to {@code minLogHeight} for one height)
     * @return why the heights are out of range (or the range is empty), in words, or empty
     */
    public static Optional<String> heightViolation(int minLogHeight, int maxLogHeight) {
        return NameAndHeightRules.heightViolation(minLogHeight, maxLogHeight);
    }

    // ------------------------------------------------------------------ writing

    /**
     * Writes a proof in format {@value #VERSION}; {@link #read(byte[])} gives it back.
     *
     * @param proof the proof, as the prover made it
     * @return its bytes
     * @throws IllegalArgumentException when a table's name or definition name breaks {@link #nameViolation}
     */
    public static byte[] write(Proof proof) {
        return writeWithSizes(proof).bytes();
    }

    /**
     * Bytes plus how many of them each part takes (for inspect).
     *
     * @param bytes the proof's bytes, as {@link #write} gives them
     * @param sizes the bytes of each part, which add up to {@code bytes.length}
     */
    public record Written(byte[] bytes, ProofSizes sizes) {}

    /**
     * {@link #write} that also counts the bytes of each part.
     *
     * @param proof the proof, as the prover made it
     * @return its bytes and their sizes per part
     * @throws IllegalArgumentException when a table's name or definition name breaks {@link #nameViolation}
     */
    public static Written writeWithSizes(Proof proof) {
        return ProofWriter.write(proof);
    }

    // ------------------------------------------------------------------ options

    /** Bytes of encoded options. */
    public static final int OPTIONS_BYTES = 7;

    /**
     * The options as the proof (and a verifying key) stores them: u8 log2 blowup, u8 queries, u8 grinding
     * bits, u8 log2 folding factor, u8 log2 final degree, u8 hash id, u8 required security bits.
     *
     * @param o the options
     * @return their {@value #OPTIONS_BYTES} bytes
     */
    public static byte[] encodeOptions(ProofOptions o) {
        return OptionsCodec.encode(o);
    }

    /**
     * The options {@link #encodeOptions} wrote at {@code offset}.
     *
     * @param bytes holds the {@value #OPTIONS_BYTES} encoded bytes at {@code offset}
     * @param offset where they start
     * @return the options, checked like any {@link ProofOptions}
     * @throws UnknownHashException for a hash id no hasher has
     * @throws InvalidOptionsException for a value out of range
     */
    public static ProofOptions decodeOptions(byte[] bytes, int offset) {
        return OptionsCodec.decode(bytes, offset, offset);
    }

    // ------------------------------------------------------------------ the largest proof

    /**
     * One table as the size bound sees it: its names, its definition and the heights it may have.
     *
     * @param name the table's name in the statement
     * @param definition its table definition (its widths, public inputs and composition parts count)
     * @param minLogHeight log2 of the fewest rows it may have
     * @param maxLogHeight log2 of the most rows it may have
     */
    public record TableLayout(String name, Air definition, int minLogHeight, int maxLogHeight) {
        /**
         * Checks the heights.
         *
         * @throws InvalidStatementException naming the table when the heights are outside
         *     2^1..2^{@value #MAX_LOG_HEIGHT} or the range is empty ({@link #heightViolation})
         */
        public TableLayout {
            Optional<String> violation = heightViolation(minLogHeight, maxLogHeight);
            if (violation.isPresent()) {
                throw new InvalidStatementException(name, violation.get());
            }
        }

        /**
         * A table of one known height.
         *
         * @param name the table's name in the statement
         * @param definition its table definition
         * @param logHeight log2 of its rows
         * @return the layout with both heights {@code logHeight}
         * @throws InvalidStatementException naming the table when the height is outside the format's range
         */
        public static TableLayout of(String name, Air definition, int logHeight) {
            return new TableLayout(name, definition, logHeight, logHeight);
        }
    }

    /**
     * The most bytes a proof of these tables (in this order) can have under {@code options}: the layout
     * above with every count at the most a valid proof can hold (each tree opened at min(queries, leaves)
     * leaves with the most siblings such an opening needs). Arithmetic only, linear in the tables and
     * their heights.
     *
     * @param options the options the proof was made with
     * @param tables the proof's tables, in its table order
     * @return the bound, in bytes (a proof of these tables is never longer)
     */
    public static long maxBytes(ProofOptions options, List<TableLayout> tables) {
        return ProofSizeBound.maxBytes(options, tables);
    }

    /**
     * The most bytes a proof of these tables can have under any option set {@code accepted} holds, at most
     * {@link #MAX_PROOF_BYTES}. For "any options" that is the largest over the options that shape a proof
     * (blowup, folding factor, final degree) at the most queries: grinding, the hash and the claimed
     * security change no count of {@link #maxBytes(ProofOptions, List)}.
     *
     * @param accepted the options a verifier accepts (exactly some, or any within a minimum)
     * @param tables the proof's tables, in its table order
     * @return the bound, in bytes, at most {@link #MAX_PROOF_BYTES}
     */
    public static long maxBytes(AcceptedOptions accepted, List<TableLayout> tables) {
        return ProofSizeBound.maxBytes(accepted, tables);
    }

    /**
     * The most bytes a proof can have under any option set {@code accepted} holds when nothing is known of its
     * statement but its bounds: at most {@code maxTables} tables, each of one of {@code definitions} (any name, any
     * order) and at most 2^maxLogHeight rows; at most {@link #MAX_PROOF_BYTES}. A proof that describes its own
     * statement is bounded by it before its first byte is read.
     *
     * @param accepted the options a verifier accepts
     * @param definitions the table definitions a verifier knows (a verifying key's)
     * @param maxTables the most tables, 1..{@value #MAX_TABLES}
     * @param maxLogHeight log2 of the most rows of any table, 1..{@value #MAX_LOG_HEIGHT}
     * @return the bound, in bytes
     * @throws IllegalArgumentException when a bound is outside its range or there are no definitions
     */
    public static long maxBytes(AcceptedOptions accepted, List<Air> definitions, int maxTables, int maxLogHeight) {
        return ProofSizeBound.maxBytes(accepted, definitions, maxTables, maxLogHeight);
    }

    // ------------------------------------------------------------------ reading

    /** Only the format's own limits: for reading a proof without a verifying key (inspect). */
    public static final ReadChecks FORMAT_LIMITS = new ReadChecks() {
        @Override
        public long maxBytes() {
            return MAX_PROOF_BYTES;
        }

        @Override
        public void checkOptions(ProofOptions options) {}

        @Override
        public long checkTables(ProofOptions options, List<Proof.TableHeader> tables) {
            return MAX_PROOF_BYTES;
        }
    };

    /**
     * Parses a proof within the format's own limits ({@link #FORMAT_LIMITS}): the bytes are a well-formed
     * proof, not a checked one (that is the verifier's work).
     *
     * @param bytes the proof's bytes, as {@link #write} gives them
     * @return the proof they hold
     * @throws ProofRejectedException (MALFORMED or UNSUPPORTED) naming the byte offset of the problem;
     *     TOO_LARGE beyond {@link #MAX_PROOF_BYTES} or beyond this JVM's heap
     */
    public static Proof read(byte[] bytes) throws ProofRejectedException {
        return read(bytes, FORMAT_LIMITS, null);
    }

    /**
     * {@link #read(byte[])} that also records the bytes of each part.
     *
     * @param bytes the proof's bytes
     * @param sizes filled with the bytes of each part as they are read; null to count nothing
     * @return the proof they hold
     * @throws ProofRejectedException as {@link #read(byte[])}
     */
    public static Proof read(byte[] bytes, ProofSizes sizes) throws ProofRejectedException {
        return read(bytes, FORMAT_LIMITS, sizes);
    }

    /**
     * Parses a proof from {@code bytes} under {@code checks}.
     *
     * @param bytes the proof's bytes
     * @param checks what the caller accepts ({@link #FORMAT_LIMITS} for the format's own limits only)
     * @param sizes filled with the bytes of each part as they are read; null to count nothing
     * @return the proof they hold
     * @throws ProofRejectedException naming the byte offset of the problem: MALFORMED, UNSUPPORTED,
     *     TOO_LARGE, or what {@code checks} throws
     */
    public static Proof read(byte[] bytes, ReadChecks checks, ProofSizes sizes) throws ProofRejectedException {
        try {
            return ProofReader.read(null, bytes, bytes.length, checks, sizes);
        } catch (IOException e) {
            throw new UncheckedIOException("an array cannot fail to read", e);
        }
    }

    /**
     * Parses the proof file {@code file} under {@code checks}: a file longer than
     * {@link ReadChecks#maxBytes()} is refused by its size, unopened.
     *
     * @param file the proof file
     * @param checks what the caller accepts ({@link #FORMAT_LIMITS} for the format's own limits only)
     * @param sizes filled with the bytes of each part as they are read; null to count nothing
     * @return the proof it holds
     * @throws ProofRejectedException as {@link #read(byte[], ReadChecks, ProofSizes)}
     * @throws IOException when the file cannot be read (missing, unreadable): the environment, not the proof
     */
    public static Proof read(Path file, ReadChecks checks, ProofSizes sizes)
            throws ProofRejectedException, IOException {
        return ProofReader.read(file, checks, sizes);
    }

    /**
     * Parses a proof from {@code in} under {@code checks}, reading at most one buffer past the largest
     * accepted proof.
     *
     * @param in the stream, positioned at the proof's first byte; read, not closed
     * @param length the stream's length when known (a longer one than the checks allow is refused
     *     unread), else -1
     * @param checks what the caller accepts ({@link #FORMAT_LIMITS} for the format's own limits only)
     * @param sizes filled with the bytes of each part as they are read; null to count nothing
     * @return the proof it holds
     * @throws ProofRejectedException as {@link #read(byte[], ReadChecks, ProofSizes)}; bytes after the proof
     *     are MALFORMED
     * @throws IOException when the stream fails: the environment, not the proof
     */
    public static Proof read(InputStream in, long length, ReadChecks checks, ProofSizes sizes)
            throws ProofRejectedException, IOException {
        return ProofReader.read(in, null, length, checks, sizes);
    }

    /**
     * What a proof claims before any of its sections: its options and its table headers.
     *
     * @param options the proof's options
     * @param tables its table headers, in its table order
     */
    public record Header(ProofOptions options, List<Proof.TableHeader> tables) {
        /** Copies {@code tables}. */
        public Header {
            tables = List.copyOf(tables);
        }
    }

    /**
     * Reads only the options and table headers of a proof file, within the format's own limits: what it
     * claims, read in proportion to the header's size (a file of any length costs no more).
     *
     * @param file the proof file
     * @return its options and table headers, unchecked beyond the format's rules
     * @throws ProofRejectedException (MALFORMED, UNSUPPORTED, TOO_LARGE) naming the byte offset of the problem
     * @throws IOException when the file cannot be read (missing, unreadable): the environment, not the proof
     */
    public static Header readHeader(Path file) throws ProofRejectedException, IOException {
        return ProofReader.readHeader(file);
    }
}
