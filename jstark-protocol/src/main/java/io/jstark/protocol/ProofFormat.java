package io.jstark.protocol;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.hash.UnknownHashException;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.air.Air;
import io.jstark.crypto.merkle.MerkleVerifier;
import io.jstark.fri.FriParameters;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    private static final String HEIGHT_RANGE = "2^1..2^" + MAX_LOG_HEIGHT;
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
        int bytes = utf8(name).length;
        if (bytes > MAX_NAME_BYTES) {
            return Optional.of("the name has " + bytes + " bytes of UTF-8, at most " + MAX_NAME_BYTES + " are allowed");
        }
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            if (isInvisible(c)) {
                return Optional.of(String.format("the name holds the character U+%04X at index %d (control, format and line "
                        + "separator characters are not allowed in names)", c, i));
            }
            i += Character.charCount(c);
        }
        return Optional.empty();
    }

    /**
     * A code point that is not visible text: a control character (C0, DEL, C1), a format character (bidi
     * overrides, zero-width characters), a line or paragraph separator, or a lone surrogate.
     *
     * @param codePoint a Unicode code point
     * @return true when names may not hold it
     */
    public static boolean isInvisible(int codePoint) {
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SURROGATE -> true;
            default -> false;
        };
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
        if (minLogHeight >= 1 && maxLogHeight <= MAX_LOG_HEIGHT && minLogHeight <= maxLogHeight) {
            return Optional.empty();
        }
        return Optional.of(minLogHeight == maxLogHeight ? "height 2^" + minLogHeight + " is outside " + HEIGHT_RANGE
                : "heights 2^" + minLogHeight + "..2^" + maxLogHeight + " are not within " + HEIGHT_RANGE);
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
        Out out = new Out();
        ProofSizes sizes = new ProofSizes();
        writeHeader(out, VERSION, proof.options(), proof.tables());
        sizes.add(null, "header", out.size());
        ProofBody.writeBody(out, proof, sizes);
        return new Written(out.toByteArray(), sizes);
    }

    static void writeHeader(Out out, int version, ProofOptions o, List<Proof.TableHeader> tables) {
        out.bytes(MAGIC);
        out.u16(version);
        out.bytes(encodeOptions(o));
        out.u16(tables.size());
        for (Proof.TableHeader t : tables) {
            out.string(t.name());
            out.string(t.airName());
            out.u8(t.logHeight());
            out.u16(t.publicInputs().length);
            for (long v : t.publicInputs()) {
                out.u64(v);
            }
            out.u8(t.preprocessedRoot() == null ? 0 : 1);
            if (t.preprocessedRoot() != null) {
                out.bytes(t.preprocessedRoot());
            }
        }
    }

    static void optionalOpening(Out out, Proof.TreeOpening opening) {
        out.u8(opening == null ? 0 : 1);
        if (opening != null) {
            opening(out, opening);
        }
    }

    static void opening(Out out, Proof.TreeOpening opening) {
        long[][] leaves = opening.leafValues();
        out.u32(leaves.length);
        out.u32(leaves.length == 0 ? 0 : leaves[0].length);
        for (long[] leaf : leaves) {
            for (long v : leaf) {
                out.u64(v);
            }
        }
        out.u32(opening.siblings().length);
        for (byte[] s : opening.siblings()) {
            out.bytes(s);
        }
    }

    /**
     * Byte counts per part, over the whole proof and per table: filled by {@link #writeWithSizes}, or by a
     * reader given one ({@link #read(byte[], ProofSizes)}). Not thread-safe: one per write or read.
     */
    public static final class ProofSizes {
        private final Map<String, Long> totals = new LinkedHashMap<>();
        private final Map<String, Map<String, Long>> perTable = new LinkedHashMap<>();

        /** No part counted yet: a reader given it fills it. */
        public ProofSizes() {}

        void add(String table, String part, long bytes) {
            totals.merge(part, bytes, Long::sum);
            if (table != null) {
                perTable.computeIfAbsent(table, t -> new LinkedHashMap<>()).merge(part, bytes, Long::sum);
            }
        }

        /**
         * {@return the bytes of each part over the whole proof, in the order the parts are written ("header"
         * first); a live view, filled while a proof is written or read}
         */
        public Map<String, Long> totals() {
            return totals;
        }

        /**
         * {@return per table name (in the proof's table order), the bytes of each of its own parts (its
         * out-of-domain values, preprocessed opening and phase values, each also counted in the part's total);
         * parts of no one table (the header, the roots, the siblings, FRI) are only in {@link #totals()}}
         */
        public Map<String, Map<String, Long>> perTable() {
            return perTable;
        }

        /**
         * The byte offset at which {@code part} begins: every part is written in one piece (a per-table part for
         * all tables in a row), in the order of {@link #totals()}.
         *
         * @param part a part's name, a key of {@link #totals()}
         * @return its first byte's offset from the start of the proof
         * @throws IllegalArgumentException when no such part was counted (naming the parts that were)
         */
        public long offsetOf(String part) {
            long offset = 0;
            for (Map.Entry<String, Long> e : totals.entrySet()) {
                if (e.getKey().equals(part)) {
                    return offset;
                }
                offset += e.getValue();
            }
            throw new IllegalArgumentException("no part '" + part + "' in " + totals.keySet());
        }
    }

    /** A growable little-endian byte buffer. */
    static final class Out extends ByteArrayOutputStream {
        void u8(int v) {
            write(v);
        }

        void u16(int v) {
            write(v);
            write(v >>> 8);
        }

        void u32(int v) {
            for (int i = 0; i < 4; i++) {
                write(v >>> (8 * i));
            }
        }

        void u64(long v) {
            for (int i = 0; i < 8; i++) {
                write((int) (v >>> (8 * i)));
            }
        }

        void ext(Ext3 v) {
            u64(v.c0());
            u64(v.c1());
            u64(v.c2());
        }

        void bytes(byte[] b) {
            write(b, 0, b.length);
        }

        void string(String s) {
            Optional<String> violation = nameViolation(s);
            if (violation.isPresent()) {
                throw new IllegalArgumentException("a name the proof format cannot hold: " + violation.get());
            }
            byte[] b = utf8(s);
            u16(b.length);
            bytes(b);
        }
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
        return new byte[] {(byte) o.logBlowup(), (byte) o.queries(), (byte) o.grindingBits(), (byte) o.logFoldingFactor(),
                (byte) o.logFinalDegree(), (byte) Hashers.byName(o.hash()).id(), (byte) o.requiredSecurityBits()};
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
        Hasher hasher = Hashers.byId(bytes[offset + 5] & 0xFF);
        return new ProofOptions(bytes[offset] & 0xFF, bytes[offset + 1] & 0xFF, bytes[offset + 2] & 0xFF, bytes[offset + 3] & 0xFF,
                bytes[offset + 4] & 0xFF, hasher.name(), bytes[offset + 6] & 0xFF);
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
        return ProofBody.maxBytes(options, tables);
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
        long most = 0;
        for (ProofOptions o : sizeCandidates(accepted)) {
            most = Math.max(most, maxBytes(o, tables));
        }
        return Math.min(most, MAX_PROOF_BYTES);
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
        if (maxTables < 1 || maxTables > MAX_TABLES || heightViolation(1, maxLogHeight).isPresent() || definitions.isEmpty()) {
            throw new IllegalArgumentException("no proof bound for " + maxTables + " tables of at most 2^" + maxLogHeight + " rows of "
                    + definitions.size() + " definitions (1.." + MAX_TABLES + " tables, 2^1..2^" + MAX_LOG_HEIGHT + " rows)");
        }
        long most = 0;
        for (ProofOptions o : sizeCandidates(accepted)) {
            most = Math.max(most, ProofBody.maxBytesOfAny(o, definitions, maxTables, maxLogHeight));
        }
        return Math.min(most, MAX_PROOF_BYTES);
    }

    /**
     * The option sets whose largest proof bounds every proof {@code accepted} admits: exactly its sets, or for
     * "any options" every shape of a proof (blowup, folding factor, final degree) at the most queries; grinding,
     * the hash and the claimed security change no count of {@link #maxBytes(ProofOptions, List)}.
     */
    private static List<ProofOptions> sizeCandidates(AcceptedOptions accepted) {
        if (accepted.isExact()) {
            return accepted.exactly();
        }
        List<ProofOptions> candidates = new ArrayList<>();
        for (int logBlowup = ProofOptions.MIN_LOG_BLOWUP; logBlowup <= ProofOptions.MAX_LOG_BLOWUP; logBlowup++) {
            for (int logFolding = 1; logFolding <= ProofOptions.MAX_LOG_FOLDING_FACTOR; logFolding++) {
                for (int logFinal = 0; logFinal <= ProofOptions.MAX_LOG_FINAL_DEGREE; logFinal++) {
                    candidates.add(new ProofOptions(logBlowup, ProofOptions.MAX_QUERIES, 0, logFolding, logFinal, accepted.hashes().getFirst(), 0));
                }
            }
        }
        return candidates;
    }

    /** A table's entry in the header. */
    static long headerEntryBytes(String name, Air air) {
        return 2 + utf8(name).length + 2 + utf8(air.name()).length + 1 + 2 + 8L * air.publicInputs().size() + 1
                + (air.preprocessedWidth() > 0 ? DIGEST : 0);
    }

    /** A table's out-of-domain frame as the body writes it: 7 counts and the extension values of {@link OodFrame}. */
    static long frameBytes(Air air, int logHeight) {
        long values = 2L * (air.preprocessedWidth() + air.mainWidth() + 3L * air.auxWidth()) + 3L * air.compositionParts(logHeight);
        return 7 * 2 + Ext3.BYTES * values;
    }

    /**
     * What the trees and the FRI of a domain of 2^logHeight rows may hold at most, from the options and the
     * height alone: the reader refuses counts beyond these, and {@link #maxBytes} adds them up.
     *
     * @param logCosets log2 of the leaves of a tree over query cosets (cosets of the first FRI layer)
     */
    record SectionShape(int queries, int logFoldingFactor, int logCosets, int committedLayers, int finalCoefficients) {
        static SectionShape of(ProofOptions o, int logHeight) {
            FriParameters fri = o.friParameters();
            return new SectionShape(o.queries(), o.logFoldingFactor(), Math.max(0, logHeight + o.logBlowup() - o.logFoldingFactor()),
                    fri.committedLayers(logHeight), 1 << fri.logFinalCoefficients(logHeight));
        }

        /** log2 of the leaves of the tree over FRI layer {@code layer} (1-based, f points per leaf). */
        int logFriLeaves(int layer) {
            return Math.max(0, logCosets - layer * logFoldingFactor);
        }

        /** Every opened leaf is a distinct query (and a leaf of the tree). */
        int maxLeaves(int logLeaves) {
            return (int) Math.min(queries, 1L << logLeaves);
        }

        long maxSiblings(int logLeaves) {
            return MerkleVerifier.maxSiblings(maxLeaves(logLeaves), logLeaves);
        }

        long maxOpeningBytes(int logLeaves, long elementsPerLeaf) {
            return 4 + 4 + 8L * maxLeaves(logLeaves) * elementsPerLeaf + 4 + (long) DIGEST * maxSiblings(logLeaves);
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------ reading

    /**
     * What a reader checks while it reads, so that it stops at the first byte no accepted proof could have.
     * A check that fails throws the typed rejection it wants the caller to see.
     */
    public interface ReadChecks {
        /**
         * {@return the most bytes an accepted proof can have, before anything is read: longer inputs are
         * refused unread (TOO_LARGE)}
         */
        long maxBytes();

        /**
         * Checks the options, right after they are read (13 bytes in).
         *
         * @param options the options the proof claims, already within {@link ProofOptions}' ranges
         * @throws ProofRejectedException when no accepted proof has these options (the reader rethrows it)
         */
        void checkOptions(ProofOptions options) throws ProofRejectedException;

        /**
         * Checks the table headers, right after they are read, before any section.
         *
         * @param options the options, as {@link #checkOptions} passed them
         * @param tables the table headers the proof claims, in its order (names and heights already within
         *     the format's rules)
         * @return the most bytes an accepted proof with these tables can have: the reader refuses to read past it
         * @throws ProofRejectedException when no accepted proof has these tables (the reader rethrows it)
         */
        long checkTables(ProofOptions options, List<Proof.TableHeader> tables) throws ProofRejectedException;
    }

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
            return read(null, bytes, bytes.length, checks, sizes);
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
    public static Proof read(Path file, ReadChecks checks, ProofSizes sizes) throws ProofRejectedException, IOException {
        long length = Files.size(file);
        refuseLength(length, checks.maxBytes());
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, null, length, checks, sizes);
        }
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
    public static Proof read(InputStream in, long length, ReadChecks checks, ProofSizes sizes) throws ProofRejectedException, IOException {
        return read(in, null, length, checks, sizes);
    }

    private static void refuseLength(long length, long most) throws ProofRejectedException {
        if (length > most) {
            throw new ProofRejectedException(ProofRejectedException.Reason.TOO_LARGE, null, "the proof has " + length
                    + " bytes, more than the " + most + " of the largest proof accepted here");
        }
    }

    private static Proof read(InputStream stream, byte[] array, long length, ReadChecks checks, ProofSizes sizes)
            throws ProofRejectedException, IOException {
        try {
            return parse(stream, array, length, checks, sizes);
        } catch (OutOfMemoryError e) {
            // Within generous checks (the format's own limits, wide expected heights) a proof may hold more than
            // this heap: its arrays are garbage once this unwinds, and the caller gets a rejection, not an Error.
            throw ProofRejectedException.beyondHeap();
        }
    }

    private static Proof parse(InputStream stream, byte[] array, long length, ReadChecks checks, ProofSizes sizes)
            throws ProofRejectedException, IOException {
        if (length >= 0) {
            refuseLength(length, checks.maxBytes());
        }
        In in = array != null ? new In(array) : new In(stream, length >= 0 ? length : checks.maxBytes(), length >= 0);
        Header head = readHeader(in, checks);
        ProofOptions options = head.options();
        List<Proof.TableHeader> tables = head.tables();
        long mostWithTables = checks.checkTables(options, tables);
        if (length >= 0) {
            refuseLength(length, mostWithTables);
        }
        in.limit(mostWithTables);
        record(sizes, null, "header", in.position());
        Proof proof = ProofBody.readBody(in, options, tables, sizes);
        in.requireEnd();
        return proof;
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
        long length = Files.size(file);
        refuseLength(length, MAX_PROOF_BYTES);
        try (InputStream in = Files.newInputStream(file)) {
            return readHeader(new In(in, length, true), FORMAT_LIMITS);
        } catch (OutOfMemoryError e) {
            throw ProofRejectedException.beyondHeap();
        }
    }

    private static Header readHeader(In in, ReadChecks checks) throws ProofRejectedException, IOException {
        byte[] magic = in.bytes(4, "magic");
        if (!java.util.Arrays.equals(magic, MAGIC)) {
            throw new ProofRejectedException(ProofRejectedException.Reason.MALFORMED, null,
                    "not a jstark proof: the file does not start with \"JSTK\" (byte offset 0)");
        }
        long versionAt = in.position();
        int version = in.u16("version");
        if (version != VERSION) {
            // another version is refused by its number, never misread as this one
            throw new ProofRejectedException(ProofRejectedException.Reason.UNSUPPORTED, null,
                    "proof format version " + version + " is not supported; this verifier reads version " + VERSION
                    + " (byte offset " + versionAt + ")");
        }
        ProofOptions options = readOptions(in);
        checks.checkOptions(options);
        int tableCount = in.u16("table count");
        if (tableCount == 0 || tableCount > MAX_TABLES) {
            throw in.malformed("table count " + tableCount + " out of range 1.." + MAX_TABLES);
        }
        List<Proof.TableHeader> tables = new ArrayList<>(tableCount);
        for (int i = 0; i < tableCount; i++) {
            String name = in.string("table " + i + " name");
            String air = in.string("table " + i + " air name");
            int logHeight = in.u8("table " + i + " height");
            Optional<String> height = heightViolation(logHeight, logHeight);
            if (height.isPresent()) {
                throw in.malformed("table '" + name + "': " + height.get());
            }
            int publicCount = in.u16("public input count");
            in.require((long) publicCount * 8, "public inputs of table '" + name + "'");
            long[] publicInputs = new long[publicCount];
            for (int k = 0; k < publicCount; k++) {
                publicInputs[k] = in.field("public input");
            }
            byte[] preprocessed = in.flag("preprocessed flag") ? in.bytes(DIGEST, "preprocessed root") : null;
            tables.add(new Proof.TableHeader(name, air, logHeight, publicInputs, preprocessed));
        }
        return new Header(options, tables);
    }

    private static ProofOptions readOptions(In in) throws ProofRejectedException, IOException {
        long at = in.position();
        byte[] encoded = in.bytes(OPTIONS_BYTES, "options");
        try {
            return decodeOptions(encoded, 0);
        } catch (UnknownHashException e) {
            throw new ProofRejectedException(ProofRejectedException.Reason.UNSUPPORTED, null, "unknown hash id " + (encoded[5] & 0xFF)
                    + " at byte offset " + (at + 5));
        } catch (InvalidOptionsException e) {
            throw new ProofRejectedException(ProofRejectedException.Reason.MALFORMED, null, "options at byte offset " + at + ": "
                    + e.getMessage());
        }
    }

    static void record(ProofSizes sizes, String table, String part, long bytes) {
        if (sizes != null) {
            sizes.add(table, part, bytes);
        }
    }

    static Proof.TreeOpening readOpening(In in, String what, SectionShape shape, int logLeaves)
            throws ProofRejectedException, IOException {
        int leaves = in.u32(what + " opened leaf count");
        int perLeaf = in.u32(what + " elements per leaf");
        if (leaves < 0 || perLeaf < 0) {
            throw in.malformed(what + " opening has a negative count");
        }
        int mostLeaves = shape.maxLeaves(logLeaves);
        if (leaves > mostLeaves) {
            // every opened leaf is a distinct query and a leaf of the tree
            throw in.malformed(what + " opening has " + leaves + " leaves, at most " + mostLeaves + " are possible ("
                    + shape.queries() + " queries, a tree of 2^" + logLeaves + " leaves)");
        }
        if (perLeaf == 0 && leaves != 0) {
            // an empty leaf costs no bytes, so the length check below could not bound the leaf count
            throw in.malformed(what + " opening has " + leaves + " leaves of no elements");
        }
        in.require(8L * leaves * perLeaf, what + " opened leaves (" + leaves + " x " + perLeaf + " elements)");
        long[][] values = new long[leaves][];
        String element = what + " leaf element";
        for (int l = 0; l < leaves; l++) {
            long[] leaf = new long[perLeaf];
            for (int e = 0; e < perLeaf; e++) {
                leaf[e] = in.field(element);
            }
            values[l] = leaf;
        }
        int siblings = in.u32(what + " sibling count");
        long mostSiblings = shape.maxSiblings(logLeaves);
        if (siblings < 0 || siblings > mostSiblings) {
            throw in.malformed(what + " opening has " + Integer.toUnsignedString(siblings) + " siblings, at most " + mostSiblings
                    + " are possible");
        }
        in.require((long) siblings * DIGEST, what + " siblings");
        byte[][] nodes = new byte[siblings][];
        String sibling = what + " sibling";
        for (int s = 0; s < siblings; s++) {
            nodes[s] = in.bytes(DIGEST, sibling);
        }
        return new Proof.TreeOpening(values, nodes);
    }

    /**
     * A bounds-checked little-endian reader that reports byte offsets. It reads through a small buffer (or
     * the caller's array) and knows the most bytes the input may still hold: its limit.
     */
    static final class In {
        private static final int BUFFER = 1 << 16;
        private final InputStream source;
        private final boolean lengthKnown;
        private final byte[] buffer;
        /** Stream offset of buffer[0]. */
        private long base;
        private int pos;
        private int end;
        private long limit;

        /** Over a whole array. */
        In(byte[] data) {
            this.source = null;
            this.lengthKnown = true;
            this.buffer = data;
            this.end = data.length;
            this.limit = data.length;
        }

        /** Over a stream of at most {@code limit} bytes ({@code lengthKnown}: exactly that many). */
        In(InputStream source, long limit, boolean lengthKnown) {
            this.source = source;
            this.lengthKnown = lengthKnown;
            this.buffer = new byte[BUFFER];
            this.limit = limit;
        }

        long position() {
            return base + pos;
        }

        long remaining() {
            return limit - position();
        }

        /** From here on the input may hold at most {@code most} bytes in all. */
        void limit(long most) {
            limit = Math.min(limit, most);
        }

        ProofRejectedException malformed(String message) {
            return new ProofRejectedException(ProofRejectedException.Reason.MALFORMED, null, message + " (byte offset " + position() + ")");
        }

        /** {@code bytes} more must fit in what the input may still hold. */
        void require(long bytes, String what) throws ProofRejectedException {
            if (bytes < 0 || bytes > remaining()) {
                throw malformed("truncated: " + what + " need " + bytes + " bytes, " + (lengthKnown ? "" : "at most ") + remaining()
                        + " remain");
            }
        }

        /** {@code n} (at most one buffer) checked bytes are in the buffer. */
        private void ensure(int n) throws ProofRejectedException, IOException {
            if (end - pos >= n) {
                return;
            }
            if (source == null) {
                throw malformed("truncated: the input ends");
            }
            System.arraycopy(buffer, pos, buffer, 0, end - pos);
            base += pos;
            end -= pos;
            pos = 0;
            while (end < n) {
                int read = source.read(buffer, end, buffer.length - end);
                if (read < 0) {
                    throw new ProofRejectedException(ProofRejectedException.Reason.MALFORMED, null, "truncated: the input ends at byte offset "
                            + (base + end));
                }
                end += read;
            }
        }

        /** Nothing may follow the last table. */
        void requireEnd() throws ProofRejectedException, IOException {
            boolean more = lengthKnown ? remaining() > 0 : end > pos || source.read() >= 0;
            if (more) {
                throw malformed((lengthKnown ? remaining() + " unexpected bytes" : "unexpected bytes") + " after the proof's last part");
            }
        }

        int u8(String what) throws ProofRejectedException, IOException {
            require(1, what);
            ensure(1);
            return buffer[pos++] & 0xFF;
        }

        boolean flag(String what) throws ProofRejectedException, IOException {
            int v = u8(what);
            if (v > 1) {
                pos--;
                throw malformed(what + " must be 0 or 1, found " + v);
            }
            return v == 1;
        }

        int u16(String what) throws ProofRejectedException, IOException {
            require(2, what);
            ensure(2);
            int v = (buffer[pos] & 0xFF) | (buffer[pos + 1] & 0xFF) << 8;
            pos += 2;
            return v;
        }

        int u32(String what) throws ProofRejectedException, IOException {
            require(4, what);
            ensure(4);
            int v = 0;
            for (int i = 3; i >= 0; i--) {
                v = (v << 8) | (buffer[pos + i] & 0xFF);
            }
            pos += 4;
            return v;
        }

        long u64(String what) throws ProofRejectedException, IOException {
            require(8, what);
            ensure(8);
            long v = Goldilocks.decodeRaw(buffer, pos);
            pos += 8;
            return v;
        }

        long field(String what) throws ProofRejectedException, IOException {
            long at = position();
            long v = u64(what);
            if (!Goldilocks.isCanonical(v)) {
                throw new ProofRejectedException(ProofRejectedException.Reason.MALFORMED, null, what + " is not a canonical field element"
                        + " (byte offset " + at + ")");
            }
            return v;
        }

        Ext3 ext(String what) throws ProofRejectedException, IOException {
            return new Ext3(field(what), field(what), field(what));
        }

        Ext3[] exts(int count, String what) throws ProofRejectedException, IOException {
            require((long) count * Ext3.BYTES, what);
            Ext3[] out = new Ext3[count];
            for (int j = 0; j < count; j++) {
                out[j] = ext(what);
            }
            return out;
        }

        byte[] bytes(int n, String what) throws ProofRejectedException, IOException {
            require(n, what);
            ensure(n);
            byte[] out = java.util.Arrays.copyOfRange(buffer, pos, pos + n);
            pos += n;
            return out;
        }

        String string(String what) throws ProofRejectedException, IOException {
            long at = position();
            int length = u16(what);
            if (length > MAX_NAME_BYTES) {
                throw malformed(what + " has " + length + " bytes, at most " + MAX_NAME_BYTES + " are allowed");
            }
            require(length, what);
            ensure(length);
            String s;
            try {
                s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(buffer, pos, length)).toString();
            } catch (CharacterCodingException e) {
                throw malformed(what + " is not valid UTF-8");
            }
            Optional<String> violation = nameViolation(s);
            if (violation.isPresent()) {
                // the name itself stays out of the message: it is what the rule refuses to print
                throw new ProofRejectedException(ProofRejectedException.Reason.MALFORMED, null, what + " at byte offset " + at + ": "
                        + violation.get());
            }
            pos += length;
            return s;
        }
    }
}
